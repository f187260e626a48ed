// expect: unsafe
// pthread_cleanup_pop(0) removes the handler without running it: the
// worker returns normally still holding the mutex, and main deadlocks.
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void release(void *arg) { pthread_mutex_unlock((pthread_mutex_t *)arg); }

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_cleanup_push(release, &m);
  pthread_cleanup_pop(0);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
