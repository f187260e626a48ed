// expect: safe
// A heap array of an input length is filled with its indices by a loop,
// then the element at a constant index is read and checked in a later
// statement. The proof: the loop's invariant `i <= k ∨ a_k = k` of the
// tracked element `k`, and past the read, `clean <= 0 ∨ t = 20` of the
// value read (proposed from the step into the error, whose guard it
// negates).
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int *a;
int n;

int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000)
    return 0;
  a = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++)
    a[i] = i;
  if (n > 20 && a[20] != 20)
    reach_error();
  free(a);
  return 0;
}
