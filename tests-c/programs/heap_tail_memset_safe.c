// expect: safe
// memset of a heap array of an input length, its size known at run time
// only (n * sizeof(int)): every element then reads 0
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000)
    return 0;
  int *b = malloc(n * sizeof(int));
  memset(b, 0, n * sizeof(int));
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n)
    __VERIFIER_assert(b[j] == 0);
  free(b);
  return 0;
}
