// expect: safe
// args: --no-races
// ILP32: long and unsigned long are 32 bits, long long is 64 bits
#include <assert.h>

int main(void) {
  unsigned long ul = 4294967295UL;
  ul++;
  assert(ul == 0);
  long l = -1;
  unsigned long ul2 = l;
  assert(ul2 == 4294967295UL);
  long long big = 2147483647;
  big = big + 1;
  assert(big == 2147483648LL);
  unsigned long long ull = 0;
  ull--;
  assert(ull == 18446744073709551615ULL);
  unsigned int t = (unsigned int)ull; // keeps the low 32 bits
  assert(t == 4294967295u);
  return 0;
}
