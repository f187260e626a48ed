// expect: safe
// args: --no-races
// unsigned long long wraps around at 2^64: increments, negation, doubling,
// conversion to long long
#include <assert.h>
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  unsigned long long y = x + 1;
  if (x == 18446744073709551615ULL) {
    assert(y == 0);
  } else {
    assert(y > x);
  }
  unsigned long long w = 0 - x;
  assert(w + x == 0);
  unsigned long long z = x * 2;
  assert(z % 2 == 0);
  if (x >= 9223372036854775808ULL) {
    assert(z < x);
  }
  long long s = (long long)x;
  if (x > 9223372036854775807ULL) {
    assert(s < 0);
  }
  return 0;
}
