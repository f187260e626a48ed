// expect: safe
// args: --races
// Two threads write a shared double, each under the mutex: no data race.
#include <pthread.h>

double level;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  level = level * 0.5 + 1.0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  level = 2.0;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
