// expect: safe
// args: --property valid-memsafety
// A worker takes a block from a helper that returns it and publishes it in
// a global before it drops its own pointer.
#include <pthread.h>
#include <stdlib.h>

int *shared;

int *make(void) { return malloc(sizeof(int)); }

void *worker(void *arg) {
  int *p = make();
  *p = 1;
  shared = p;
  p = 0;
  while (1) {
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  return 0;
}
