// expect: unsafe
// args: --no-races
// the top bits of x are all set only from 2^64 - 2^60 on
#include <assert.h>
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  if (x >= 9223372036854775808ULL) {
    assert((x >> 60) != 15);
  }
  return 0;
}
