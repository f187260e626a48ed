// expect: safe
// args: --no-races
// an ESBMC-style harness: __ESBMC_assume restricts the input, __ESBMC_atomic_begin/end make a check-and-update indivisible
// invariant: balance never drops below 0, because each check and withdrawal happen in one atomic section
#include <pthread.h>
#include <assert.h>

int nondet_int(void);
int balance = 10;

void *withdraw(void *arg) {
  int amount = nondet_int();
  __ESBMC_assume(amount > 0 && amount <= 10);
  __ESBMC_atomic_begin();
  if (amount <= balance)
    balance = balance - amount;
  __ESBMC_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, withdraw, 0);
  pthread_create(&t2, 0, withdraw, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(balance >= 0);
  return 0;
}
