// expect: unsafe
// args: --no-races
// a recursive mutex locked twice and unlocked once stays held: main's trylock after the join fails with EBUSY
// error: the worker locks twice, unlocks once and returns; main's pthread_mutex_trylock returns EBUSY and the assertion fails
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_t t;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(pthread_mutex_trylock(&m) == 0);
  return 0;
}
