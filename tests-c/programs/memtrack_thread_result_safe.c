// expect: safe
// args: --property valid-memsafety
// A worker returns its block; main takes it from the join and frees it.
#include <pthread.h>
#include <stdlib.h>

void *worker(void *arg) {
  int *p = malloc(sizeof(int));
  *p = 7;
  return p;
}

int main(void) {
  pthread_t t;
  void *res;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, &res);
  free(res);
  return 0;
}
