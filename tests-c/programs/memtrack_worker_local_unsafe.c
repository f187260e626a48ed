// expect: unsafe
// args: --property valid-memsafety
// The worker's only pointer to its block is a local: when the worker
// returns, the block is allocated and nothing points to it (valid-memtrack).
#include <pthread.h>
#include <stdlib.h>

void *worker(void *arg) {
  int *p = malloc(sizeof(int));
  *p = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
