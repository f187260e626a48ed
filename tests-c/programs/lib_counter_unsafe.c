// expect: unsafe
// args: --concurrent transfer:2 --no-races
// A library without main checked with --concurrent: two threads call transfer, whose unlocked balance updates race (a lost update makes the assertion fail).
#include <assert.h>

int balance;

void transfer(void) {
  balance = balance + 1;
  assert(balance > 0);
  balance = balance - 1;
}
