// expect: unsafe
// args: --no-races
// cas_spinlock_safe.c without resetting expected after a failed exchange: the failure wrote 1 into it, so the next try "acquires" a held lock
// error: thread 2's exchange fails while thread 1 holds the lock (expected := 1), the retry compares 1 == 1 and enters too; an update is lost
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int lock;
int counter = 0;

void acquire(void) {
  int expected = 0;
  while (!atomic_compare_exchange_strong(&lock, &expected, 1))
    ;
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
