// expect: safe
// args: --no-races
// C division truncates toward zero and % takes the sign of the dividend
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int x = -7;
  assert(x / 2 == -3);
  assert(x % 2 == -1);
  assert(7 / -2 == -3);
  assert(7 % -2 == 1);
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y > -1000 && y < 1000);
  assert((y / 4) * 4 + y % 4 == y);
  if (y >= 0) {
    assert(y % 4 >= 0 && y % 4 < 4);
  } else {
    assert(y % 4 <= 0 && y % 4 > -4);
  }
  return 0;
}
