// expect: unsafe
// args: --no-races
// two threads repeatedly withdraw a nondet unsigned amount above 1,000,000 after checking amount <= balance, without a lock: the unsigned balance wraps
// interleaving: balance = 3000000; t1 and t2 both check 1500001 <= 3000000; t1 stores 1499999; t2 loads it and stores 1499999 - 1500001, which wraps to 4294967294 > 3000000
#include <pthread.h>
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

unsigned int balance;

void *withdraw(void *arg) {
  while (__VERIFIER_nondet_uint()) {
    unsigned int amount = __VERIFIER_nondet_uint();
    if (amount > 1000000u && amount <= balance) {
      balance = balance - amount;
    }
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
