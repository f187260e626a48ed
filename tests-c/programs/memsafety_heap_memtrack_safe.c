// expect: safe
// args: --property valid-memsafety
// Dereferences and frees are valid, and the block stays reachable through
// the global `p` until it is freed (valid-memtrack holds).
#include <pthread.h>
#include <stdlib.h>

int *p;

void *worker(void *arg) {
  *p = 2;
  return 0;
}

int main(void) {
  pthread_t t;
  p = malloc(sizeof(int));
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(p);
  return 0;
}
