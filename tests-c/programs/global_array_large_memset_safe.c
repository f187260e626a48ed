// expect: safe
// memset of a whole array too large for a variable per element: every
// element then reads 0, the one written before included
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int a[10000];

int main(void) {
  a[5] = 3;
  memset(a, 0, sizeof a);
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < 10000)
    __VERIFIER_assert(a[j] == 0);
  return 0;
}
