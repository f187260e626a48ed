// expect: safe
// args: --no-races
// main frees the heap object only after joining the worker that reads it.
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
  pthread_join(t, 0);
  free(p);
  return 0;
}
