// expect: safe
// args: --no-races
// the ternary operator: max of two nondets, nested ternaries, ternary as an operand
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int m = a > b ? a : b;
  assert(m >= a && m >= b);
  assert(m == a || m == b);
  int s = a < 0 ? -1 : a == 0 ? 0 : 1;
  assert(s >= -1 && s <= 1);
  assert((s == 0) == (a == 0));
  int t = (a > 0 ? 1 : 2) + 10;
  assert(t == 11 || t == 12);
  return 0;
}
