// expect: safe
// timeout: 200
// 10000 workers started through an array of thread handles, each adding 1
// to a count under a mutex; main joins them all and reads the count without
// the mutex. Races and deadlocks are checked too (the default): no two
// workers touch the count outside the mutex, and main reads it only when
// every worker has been joined, for any number of workers
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t ids[10000];
  for (int i = 0; i < 10000; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (int i = 0; i < 10000; i++) {
    pthread_join(ids[i], 0);
  }
  if (count != 10000) {
    reach_error();
  }
  return 0;
}
