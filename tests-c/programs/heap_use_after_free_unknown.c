// expect: unknown
// args: --no-races --no-memsafety
// true verdict: safe
// a worker reads a heap object that main may already have freed: use after free gives up (memory safety is not this property)
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
int *p;
void *worker(void *arg) {
  if (*p > 5) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  p = malloc(sizeof(int));
  *p = 1;
  pthread_create(&t, 0, worker, 0);
  free(p);
  pthread_join(t, 0);
  return 0;
}
