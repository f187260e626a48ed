// expect: safe
// args: --no-races
// +=, -=, pre/post ++ and -- with their values used, and the value of an assignment expression
#include <assert.h>

int main(void) {
  int x = 5;
  x += 3;
  assert(x == 8);
  x -= 2;
  assert(x == 6);
  int y = x++;
  assert(y == 6 && x == 7);
  int z = ++x;
  assert(z == 8 && x == 8);
  int w = x--;
  assert(w == 8 && x == 7);
  int v = --x;
  assert(v == 6 && x == 6);
  int u = (x += 4);
  assert(u == 10 && x == 10);
  int a, b;
  a = b = 3;
  assert(a == 3 && b == 3);
  unsigned char c = 250;
  unsigned char old = c++;
  c += 10;                    // 251 + 10 = 261, stored as 5
  assert(old == 250 && c == 5);
  return 0;
}
