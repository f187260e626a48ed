// expect: safe
// args: --no-races
// small operands are promoted to int before arithmetic; only the store back wraps
#include <assert.h>

int main(void) {
  unsigned char a = 200;
  unsigned char b = 100;
  int s = a + b;             // 300, computed in int
  assert(s == 300);
  unsigned char c = a + b;   // 300 mod 256
  assert(c == 44);
  unsigned short x = 65535;
  int p = x + 1;             // 65536 in int, no wrap
  assert(p == 65536);
  signed char n = -100;
  int q = n - 100;           // -200 in int
  assert(q == -200);
  return 0;
}
