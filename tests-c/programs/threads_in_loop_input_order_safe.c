// expect: safe
// A worker per request (SV-COMP style: a lock made of __VERIFIER_atomic
// functions) takes two inputs, sorts them into lo and hi
// and checks, under a lock, that they are in order.
// The inputs are only compared and copied: the counter abstraction gives
// them canonical values (one per order relative to each other and to the
// constants compared with), so a worker has finitely many local states.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void reach_error(void);
void assume_abort_if_not(int cond) {
  if (!cond) {
    abort();
  }
}

int m = 0;

void __VERIFIER_atomic_acquire(void) {
  assume_abort_if_not(m == 0);
  m = 1;
}

void __VERIFIER_atomic_release(void) {
  assume_abort_if_not(m == 1);
  m = 0;
}

void *worker(void *arg) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  __VERIFIER_atomic_acquire();
  int lo = a <= b ? a : b;
  int hi = a <= b ? b : a;
  if (lo > hi) {
    reach_error();
  }
  __VERIFIER_atomic_release();
  return 0;
}

int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
