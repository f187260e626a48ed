// expect: safe
// args: --no-races
// exit(0) stops the program, also from inside a called function
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

void stop(void) {
  exit(0);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    stop();
    reach_error();
  }
  exit(0);
  reach_error();
  return 0;
}
