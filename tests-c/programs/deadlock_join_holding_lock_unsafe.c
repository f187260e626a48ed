// expect: unsafe
// main joins a worker while holding the mutex the worker needs: the worker
// waits for the mutex, main waits for the worker to end
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  total++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  total += 10;
  pthread_join(t, 0);
  pthread_mutex_unlock(&m);
  return 0;
}
