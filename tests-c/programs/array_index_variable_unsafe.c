// expect: unsafe
// args: --no-races
// a constant-size global array read at a nondet in-range index; index 3 holds 6
// every access stays in bounds (k is assumed in [0, 4])
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
  assert(a[k] != 6);
  return 0;
}
