// expect: unsafe
// the twin of heap_array_fill_assert_safe.c leaves the last element as
// malloc returned it: the check of that element fails
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
  for (int i = 0; i < n - 1; i++)
    a[i] = 1;
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n)
    __VERIFIER_assert(a[j] == 1);
  free(a);
  return 0;
}
