// expect: unsafe
// args: --no-races
// two threads repeatedly withdraw a nondet amount of at least 1,000,000 after checking amount <= balance, without a lock
// interleaving: balance = 1500000; t1 checks 1000000 <= 1500000; t2 checks 1000000 <= 1500000; t1 loads 1500000, stores 500000; t2 loads 500000, stores -500000; both leave their loops; balance < 0
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int balance;

void *withdraw(void *arg) {
  while (__VERIFIER_nondet_int()) {
    int amount = __VERIFIER_nondet_int();
    if (amount >= 1000000 && amount <= balance) {
      balance = balance - amount;
    }
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  balance = 1500000;
  pthread_create(&t1, 0, withdraw, 0);
  pthread_create(&t2, 0, withdraw, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (balance < 0) {
    reach_error();
  }
  return 0;
}
