// expect: safe
// args: --property valid-memcleanup
// The worker's block is freed by main after the join: nothing is allocated
// when main returns.
#include <pthread.h>
#include <stdlib.h>

int *buf;

void *worker(void *arg) {
  buf = malloc(sizeof(int));
  *buf = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(buf);
  return 0;
}
