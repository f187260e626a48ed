// expect: unsafe
// args: --no-races
// CBMC's allocation primitive: `__CPROVER_allocate(size, 0)` gives an
// uninitialised block (as malloc), so a value read before the worker
// writes it may be anything: main reads it without joining first.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

void *__CPROVER_allocate(unsigned long size, _Bool zero);

int *filled;

void *worker(void *arg) {
  *filled = 7;
  return 0;
}

int main(void) {
  filled = __CPROVER_allocate(sizeof(int), 0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  assert(*filled == 7);
  pthread_join(t, 0);
  free(filled);
  return 0;
}
