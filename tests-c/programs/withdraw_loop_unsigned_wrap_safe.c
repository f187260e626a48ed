// expect: safe
// args: --no-races
// withdraw_loop_unsigned_wrap_unsafe.c with the check and the withdrawal in one critical section: the balance never wraps
// invariant: balance <= 3000000 outside the critical section; amount <= balance is checked under the lock that guards the subtraction
#include <pthread.h>
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

unsigned int balance;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *withdraw(void *arg) {
  while (__VERIFIER_nondet_uint()) {
    unsigned int amount = __VERIFIER_nondet_uint();
    pthread_mutex_lock(&m);
    if (amount > 1000000u && amount <= balance) {
      balance = balance - amount;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  balance = 3000000u;
  pthread_create(&t1, 0, withdraw, 0);
  pthread_create(&t2, 0, withdraw, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (balance > 3000000u) {
    reach_error();
  }
  return 0;
}
