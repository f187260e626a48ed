// expect: safe
// args: --property no-deadlock
// a recursive mutex taken again by its owner (a helper that locks what its
// caller holds) does not wait: no deadlock, although a default mutex would
// wait forever here
#include <pthread.h>

pthread_mutex_t m;
int count;

void add(int n) {
  pthread_mutex_lock(&m);
  count += n;
  pthread_mutex_unlock(&m);
}

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  add(1);
  add(2);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &at);
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
