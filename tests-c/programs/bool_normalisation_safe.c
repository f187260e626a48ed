// expect: safe
// args: --no-races
// conversion to _Bool yields 0 or 1 (5, 256 and -1 all become 1; 256 is not truncated to 0)
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
  _Bool b = 5;
  assert(b == 1);
  _Bool c = 256;
  assert(c == 1);
  _Bool d = -1;
  assert(d == 1);
  _Bool e = __VERIFIER_nondet_int();
  assert(e == 0 || e == 1);
  _Bool f = __VERIFIER_nondet_bool();
  int sum = f + f;
  assert(sum == 0 || sum == 2);
  return 0;
}
