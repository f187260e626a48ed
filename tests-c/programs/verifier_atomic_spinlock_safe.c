// expect: safe
// args: --no-races
// a spin lock from SV-COMP style atomic functions: acquire assumes the lock is free and takes it
// invariant: lock == 1 exactly while one thread is between acquire and release, so inside == 1 there
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);

int lock = 0;
int inside = 0;

void __VERIFIER_atomic_acquire(void) {
  __VERIFIER_assume(lock == 0);
  lock = 1;
}

void __VERIFIER_atomic_release(void) {
  lock = 0;
}

void *worker(void *arg) {
  __VERIFIER_atomic_acquire();
  inside = inside + 1;
  if (inside != 1) {
    reach_error();
  }
  inside = inside - 1;
  __VERIFIER_atomic_release();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
