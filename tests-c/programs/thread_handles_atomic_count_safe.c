// expect: safe
// 10000 workers started through an array of thread handles, each adding 1
// to an atomic count with atomic_fetch_add; main joins them all and checks
// the count. Races and deadlocks are checked too. The proof relates what
// main's loops count (the index up, the joins up) across the counter
// system's steps.
#include <pthread.h>
#include <stdatomic.h>
extern void reach_error(void);

atomic_int count;

void *worker(void *arg) {
  atomic_fetch_add(&count, 1);
  return 0;
}

int main(void) {
  pthread_t ids[10000];
  for (int i = 0; i < 10000; i++)
    pthread_create(&ids[i], 0, worker, 0);
  for (int i = 0; i < 10000; i++)
    pthread_join(ids[i], 0);
  if (atomic_load(&count) != 10000)
    reach_error();
  return 0;
}
