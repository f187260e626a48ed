// expect: unsafe
// the twin of global_array_large_memset_safe.c clears the first half of
// the array only: the element written past it keeps its value
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int a[10000];

int main(void) {
  a[7000] = 3;
  memset(a, 0, 5000 * sizeof(int));
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < 10000)
    __VERIFIER_assert(a[j] == 0);
  return 0;
}
