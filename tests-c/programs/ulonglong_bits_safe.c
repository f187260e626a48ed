// expect: safe
// args: --no-races
// complement, masks and shifts of unsigned long long values from 2^63 on
#include <assert.h>
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern void __VERIFIER_assume(int);

int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  __VERIFIER_assume(x >= 18446744073709551600ULL);
  unsigned long long hi = x >> 60;
  assert(hi == 15);
  unsigned long long flipped = ~x;
  assert(flipped < 16);
  unsigned long long low = x & 255ULL;
  assert(low >= 240);
  long long s = (long long)x;
  assert(s < 0 && s >= -16);
  return 0;
}
