// expect: unsafe
// args: --no-races
// esbmc_harness_safe.c without the atomic section: both threads pass the check before either withdraws
// error: both withdraw amount 10 after checking 10 <= balance, and balance == -10
#include <pthread.h>
#include <assert.h>

int nondet_int(void);
int balance = 10;

void *withdraw(void *arg) {
  int amount = nondet_int();
  __ESBMC_assume(amount > 0 && amount <= 10);
  if (amount <= balance)
    balance = balance - amount;
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
