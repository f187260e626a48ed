// expect: unsafe
// args: --no-races
// atomic_counter_c11_safe.c with the increment split into atomic_load and atomic_store: an update is lost
// error: both threads load 0 before either stores, both store 1, and counter == 1 after the joins
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int counter;

void *worker(void *arg) {
  int v = atomic_load(&counter);
  atomic_store(&counter, v + 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(atomic_load(&counter) == 2);
  return 0;
}
