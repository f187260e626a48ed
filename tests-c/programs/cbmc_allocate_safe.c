// expect: safe
// args: --no-races
// CBMC's allocation primitive: `__CPROVER_allocate(size, 1)` gives a
// zeroed block (as calloc), `__CPROVER_allocate(size, 0)` an uninitialised
// one (as malloc). A worker fills the second block under a mutex; main
// reads both after the join and frees them.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

void *__CPROVER_allocate(unsigned long size, _Bool zero);

int *zeroed, *filled;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  *filled = 7;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  zeroed = __CPROVER_allocate(sizeof(int), 1);
  filled = __CPROVER_allocate(sizeof(int), 0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(*zeroed == 0 && *filled == 7);
  free(zeroed);
  free(filled);
  return 0;
}
