// expect: safe
// args: --no-races
// a recursive mutex (type set by pthread_mutexattr_settype) may be locked again by its owner; two workers lock it twice around an update
// invariant: the mutex is free only when its owner has unlocked as often as it locked, so the updates do not interleave
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int counter = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  int v = counter;
  counter = v + 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_t t1, t2;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m, &a);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 2);
  assert(pthread_mutex_trylock(&m) == 0);
  return 0;
}
