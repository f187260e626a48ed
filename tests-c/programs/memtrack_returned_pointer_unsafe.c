// expect: unsafe
// args: --property valid-memsafety
// A worker takes a block from a helper that returns it, then drops its only
// pointer and keeps running: the block is lost (valid-memtrack; the
// helper's returned value is no pointer once the caller has used it).
#include <pthread.h>
#include <stdlib.h>

int *make(void) { return malloc(sizeof(int)); }

void *worker(void *arg) {
  int *p = make();
  *p = 1;
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
