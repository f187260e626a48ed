// expect: safe
// args: --property valid-memsafety
// The same program, but main tests the pointer under the lock the worker
// clears it under: NULL is never dereferenced.
#include <pthread.h>

int value = 7;
int *shared = &value;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  shared = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  int v = 0;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  if (shared != 0)
    v = *shared;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return v;
}
