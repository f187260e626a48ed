// expect: safe
// args: --no-races
// unsigned char wrap on ++, += and -- (modulo 256), checked with assert
#include <assert.h>

int main(void) {
  unsigned char c = 255;
  c++;
  assert(c == 0);
  c--;
  assert(c == 255);
  unsigned char d = 250;
  d += 10;
  assert(d == 4);
  unsigned short s = 65535;
  s++;
  assert(s == 0);
  return 0;
}
