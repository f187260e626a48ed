// expect: safe
// args: --no-races
// conversions to signed char / plain char (signed, 8 bits) wrap into [-128, 127]
#include <assert.h>

int main(void) {
  signed char a = (signed char)300;   // 300 - 256
  assert(a == 44);
  char b = (char)255;                 // plain char is signed: 255 - 256
  assert(b == -1);
  signed char m = 127;
  m = (signed char)(m + 1);           // int 128 converted back: -128
  assert(m == -128);
  unsigned char u = (unsigned char)b; // -1 back to unsigned char
  assert(u == 255);
  int back = b;                       // sign extension
  assert(back == -1);
  return 0;
}
