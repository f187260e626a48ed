// expect: safe
// args: --no-races
// switch with fallthrough between cases, break, and a default that a case falls into
// x = 0 -> 3, x = 1 -> 2, x = 2 -> 15, anything else -> 5
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  switch (x) {
  case 0:
    y += 1;
    /* fall through */
  case 1:
    y += 2;
    break;
  case 2:
    y = 10;
    /* fall through */
  default:
    y += 5;
  }
  if (x == 0) assert(y == 3);
  if (x == 1) assert(y == 2);
  if (x == 2) assert(y == 15);
  if (x < 0 || x > 2) assert(y == 5);
  return 0;
}
