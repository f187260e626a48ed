// expect: safe
// a heap array of an input length (allocated through a cast product) is
// filled by a loop, then an element an input chooses is checked with
// __VERIFIER_assert, all checks by default: the deadlock check (which
// does not check assertions, where a failed one aborts) proves it too
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 1000000)
    return 0;
  int *a = malloc(sizeof(int) * (size_t)n);
  if (!a)
    return 0;
  for (int i = 0; i < n; i++)
    a[i] = 1;
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n)
    __VERIFIER_assert(a[j] == 1);
  free(a);
  return 0;
}
