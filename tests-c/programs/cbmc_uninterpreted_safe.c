// expect: safe
// args: --no-races
// CBMC's uninterpreted function: a fixed unknown function of its
// arguments. The model gives each call any value, so facts that hold for
// every value are proved: the worker stores h(3) under the mutex, and main
// clamps what it reads into [0, 9].
#include <assert.h>
#include <pthread.h>

int __CPROVER_uninterpreted_h(int);

int shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  shared = __CPROVER_uninterpreted_h(3);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  int v = shared;
  if (v < 0 || v > 9)
    v = 0;
  assert(v >= 0 && v <= 9);
  return 0;
}
