// expect: unsafe
// args: --no-races
// x + 1 wraps to 0 at the greatest unsigned long long: the bug needs that
// one input value
#include <assert.h>
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  unsigned long long y = x + 1;
  assert(y > x);
  return 0;
}
