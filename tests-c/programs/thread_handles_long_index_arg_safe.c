// expect: safe
// 10000 workers started through an array of thread handles, each given its
// `long` index as the pointer argument `(void *)i` and converting it back;
// each adds 1 to a `long` sum under a mutex, and main joins them all and
// checks the sum. Races and deadlocks are checked too: the start of a
// worker writes its parameter before the worker runs, which is no race
// with the worker's own read of it (with the workers counted, that write
// once stood beside any started worker's read).
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long sum = 0;

void *worker(void *arg) {
  long id = (long)arg;
  (void)id;
  pthread_mutex_lock(&m);
  sum += 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t ids[10000];
  for (long i = 0; i < 10000; i++)
    pthread_create(&ids[i], 0, worker, (void *)i);
  for (long i = 0; i < 10000; i++)
    pthread_join(ids[i], 0);
  if (sum != 10000)
    reach_error();
  return 0;
}
