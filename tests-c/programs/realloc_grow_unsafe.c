// expect: unsafe
// args: --no-races
// realloc as in realloc_grow_safe.c; the worker stores 3 + 4 in the new
// element, but the assertion expects 12.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *shared;
int grown;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int *bigger = realloc(shared, 4 * sizeof(int));
  if (bigger) {
    bigger[2] = bigger[0] + bigger[1];
    bigger[3] = 0;
    shared = bigger;
    grown = 1;
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  shared = realloc(0, 2 * sizeof(int));
  if (!shared)
    return 0;
  shared[0] = 3;
  shared[1] = 4;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(shared[0] == 3 && shared[1] == 4);
  if (grown)
    assert(shared[2] == 12);
  free(shared);
  return 0;
}
