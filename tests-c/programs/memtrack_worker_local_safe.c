// expect: safe
// args: --property valid-memsafety
// The worker hands its block to a global before it returns; main frees it
// after the join.
#include <pthread.h>
#include <stdlib.h>

int *shared;

void *worker(void *arg) {
  int *p = malloc(sizeof(int));
  *p = 1;
  shared = p;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(shared);
  return 0;
}
