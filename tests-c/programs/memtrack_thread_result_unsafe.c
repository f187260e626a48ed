// expect: unsafe
// args: --property valid-memsafety
// A worker returns its block, but main joins it without taking the result:
// the block is lost (valid-memtrack).
#include <pthread.h>
#include <stdlib.h>

void *worker(void *arg) {
  int *p = malloc(sizeof(int));
  *p = 7;
  return p;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
