// expect: unsafe
// args: --property valid-memsafety
// A worker overwrites the only pointer to the first block with a second one
// while main waits: the first block is lost (valid-memtrack).
#include <pthread.h>
#include <stdlib.h>

int *slot;

void *worker(void *arg) {
  slot = malloc(sizeof(int));
  *slot = 2;
  return 0;
}

int main(void) {
  pthread_t t;
  slot = malloc(sizeof(int));
  *slot = 1;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(slot);
  return 0;
}
