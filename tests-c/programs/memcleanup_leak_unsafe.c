// expect: unsafe
// args: --property valid-memcleanup
// A worker allocates a block and frees it only when a flag is set, which main
// may not have done when the worker looks: the program can end with the
// block allocated.
#include <pthread.h>
#include <stdlib.h>

int *buf;
int done;

void *worker(void *arg) {
  buf = malloc(sizeof(int));
  *buf = 1;
  if (done)
    free(buf);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  done = 1;
  pthread_join(t, 0);
  return 0;
}
