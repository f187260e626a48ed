// expect: unsafe
// args: --no-races
// A worker reads a heap object that main may already have freed: the
// default check covers invalid dereferences (valid-deref).
#include <pthread.h>
#include <stdlib.h>

int *p;

void *worker(void *arg) {
  int v = *p;
  return (void *)(long)v;
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
