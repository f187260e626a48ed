// expect: safe
// args: --property valid-memsafety
// exit() ends the program while main's local still points to the block:
// the block is not freed (valid-memcleanup would fail) but it is tracked,
// since main's frame still exists (valid-memtrack holds).
#include <pthread.h>
#include <stdlib.h>

int done;

void *worker(void *arg) {
  done = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  int *p = malloc(sizeof(int));
  *p = 3;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  exit(0);
}
