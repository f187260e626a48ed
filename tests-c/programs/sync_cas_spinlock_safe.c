// expect: safe
// args: --no-races
// a spin lock from GCC's __sync_bool_compare_and_swap and __sync_lock_release protects a plain counter
// invariant: the CAS from 0 to 1 succeeds for one thread at a time; the release stores 0
#include <pthread.h>
#include <assert.h>

_Atomic int lock = 0;
int counter = 0;

void *worker(void *arg) {
  while (!__sync_bool_compare_and_swap(&lock, 0, 1))
    ;
  counter = counter + 1;
  __sync_synchronize();
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
