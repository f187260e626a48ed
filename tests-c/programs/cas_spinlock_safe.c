// expect: safe
// args: --no-races
// a spin lock built from C11 atomic_compare_exchange_weak (which may fail spuriously) protects a plain counter
// invariant: only the thread whose exchange turned lock from 0 to 1 runs the critical section; expected is reset before every try
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int lock;
int counter = 0;

void acquire(void) {
  int expected = 0;
  while (!atomic_compare_exchange_weak(&lock, &expected, 1))
    expected = 0;
}

void release(void) { atomic_store(&lock, 0); }

void *worker(void *arg) {
  acquire();
  counter = counter + 1;
  release();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 2);
  return 0;
}
