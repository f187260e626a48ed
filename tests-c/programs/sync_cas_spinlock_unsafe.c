// expect: unsafe
// args: --no-races
// sync_cas_spinlock_safe.c with __sync_val_compare_and_swap whose result is misread: the loop waits for an old value of 1
// error: thread 1 takes the lock and its next CAS returns 1; thread 2's first CAS returns 1 too, so both are inside and an update is lost
#include <pthread.h>
#include <assert.h>

int lock = 0;
int counter = 0;

void *worker(void *arg) {
  while (__sync_val_compare_and_swap(&lock, 0, 1) != 1)
    ;
  counter = counter + 1;
  __sync_lock_release(&lock);
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
