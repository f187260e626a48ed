// expect: safe
// args: --no-races
// an error-checking mutex reports a relock by its owner (EDEADLK) and an unlock by a non-owner (EPERM) instead of undefined behaviour
// invariant: main holds m while the worker runs; the worker's unlock fails with EPERM, main's relock with EDEADLK
#include <pthread.h>
#include <errno.h>
#include <assert.h>

pthread_mutex_t m;

void *worker(void *arg) {
  assert(pthread_mutex_unlock(&m) == EPERM);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_t t;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  pthread_mutex_lock(&m);
  pthread_create(&t, 0, worker, 0);
  assert(pthread_mutex_lock(&m) == EDEADLK);
  pthread_join(t, 0);
  assert(pthread_mutex_unlock(&m) == 0);
  return 0;
}
