// expect: safe
// args: --no-races
// a constant-size global array filled in a loop and read at a nondet in-range index
// invariant of the fill loop: a[j] == 2 * j for all j < i
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a[5];

int main(void) {
  int i;
  for (i = 0; i < 5; i++) {
    a[i] = 2 * i;
  }
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k < 5);
  assert(a[k] == 2 * k);
  assert(a[k] <= 8);
  return 0;
}
