// expect: unsafe
// a thread ends while it holds the mutex it was given (through a void *):
// main's lock after the join waits forever
#include <pthread.h>

void *grab(void *mtx) {
  pthread_mutex_lock(mtx);
  return 0;
}

int main(void) {
  pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
  pthread_t t;
  pthread_create(&t, 0, grab, &b);
  pthread_join(t, 0);
  pthread_mutex_lock(&b);
  pthread_mutex_unlock(&b);
  return 0;
}
