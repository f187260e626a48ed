// expect: unsafe
// a helper locks the mutex its caller already holds: glibc's default mutex
// is a normal one, and relocking it waits forever
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;

void bump(void) {
  pthread_mutex_lock(&m);
  count++;
  pthread_mutex_unlock(&m);
}

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  if (count == 0)
    bump();
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
