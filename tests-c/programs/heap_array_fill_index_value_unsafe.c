// expect: unsafe
// A heap array of an input length is filled with its indices by a loop;
// the element at a constant index does hold its index (the trace needs
// an input above 20).
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
  if (n > 20 && a[20] == 20)
    reach_error();
  free(a);
  return 0;
}
