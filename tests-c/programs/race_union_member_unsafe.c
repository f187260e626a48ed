// expect: unsafe
// args: --races
// two threads store the same member of a shared union, one under a mutex and one without
// race: the worker is about to store u.count under the mutex while main is about to store it without
#include <pthread.h>

union value { int count; char flag; };
union value u;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  u.count = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  u.count = 2;
  pthread_join(t, 0);
  return 0;
}
