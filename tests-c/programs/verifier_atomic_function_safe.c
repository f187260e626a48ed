// expect: safe
// args: --no-races
// a function named __VERIFIER_atomic_* runs atomically: used as an atomic increment
// invariant: each call adds exactly 1 atomically; 2 threads x 2 calls give counter == 4 after the joins
#include <pthread.h>
extern void reach_error(void);

int counter = 0;

void __VERIFIER_atomic_inc(void) {
  int tmp = counter;
  tmp = tmp + 1;
  counter = tmp;
}

void *worker(void *arg) {
  __VERIFIER_atomic_inc();
  __VERIFIER_atomic_inc();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (counter != 4) {
    reach_error();
  }
  return 0;
}
