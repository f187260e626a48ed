// expect: unsafe
// 10000 workers started through an array of thread handles, each adding 1
// to an atomic count with atomic_fetch_add; a worker that finds the count
// at 2 after its addition reports an error: the second worker to add does.
#include <pthread.h>
#include <stdatomic.h>
extern void reach_error(void);

atomic_int count;

void *worker(void *arg) {
  if (atomic_fetch_add(&count, 1) == 1)
    reach_error();
  return 0;
}

int main(void) {
  pthread_t ids[10000];
  for (int i = 0; i < 10000; i++)
    pthread_create(&ids[i], 0, worker, 0);
  for (int i = 0; i < 10000; i++)
    pthread_join(ids[i], 0);
  return 0;
}
