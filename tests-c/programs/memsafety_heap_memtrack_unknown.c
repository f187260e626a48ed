// expect: unknown
// args: --property valid-memsafety
// true verdict: safe
// Dereferences and frees are valid, but the program allocates: whether every
// block stays reachable (valid-memtrack) is not checked, so no `true`.
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
