// expect: unsafe
// args: --races
// 10000 workers started through an array of thread handles, each adding 1
// to a count under a mutex; main reads the count without the mutex while
// it is still starting workers: a data race between main's read and a
// worker's write (found among the first workers)
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
    if (count > 10000) {
      reach_error();
    }
  }
  for (int i = 0; i < 10000; i++) {
    pthread_join(ids[i], 0);
  }
  return 0;
}
