// expect: unsafe
// 10000 workers started through an array of thread handles, each given its
// `long` index as the pointer argument `(void *)i`; each stores its index
// in a shared `last` outside the mutex: two workers race on it.
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long sum = 0;
long last = -1;

void *worker(void *arg) {
  long id = (long)arg;
  last = id;
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
