// expect: safe
// args: --no-races
// two threads each add 1 to a C11 atomic counter with atomic_fetch_add; after both joins it is 2
// invariant: each fetch_add is one indivisible read-modify-write, so no update is lost
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int counter;

void *worker(void *arg) {
  atomic_fetch_add(&counter, 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  atomic_init(&counter, 0);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(atomic_load(&counter) == 2);
  return 0;
}
