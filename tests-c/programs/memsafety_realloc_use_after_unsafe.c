// expect: unsafe
// args: --property valid-memsafety
// realloc frees the old block when it succeeds: the worker reads through
// the pointer it kept to the old block after main moved the data.
#include <pthread.h>
#include <stdlib.h>

int *old;
int *cur;

void *worker(void *arg) {
  int v = old[0];
  return 0;
}

int main(void) {
  old = malloc(sizeof(int));
  if (!old)
    return 0;
  old[0] = 1;
  pthread_t t;
  cur = realloc(old, 2 * sizeof(int));
  if (!cur)
    return 0;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(cur);
  return 0;
}
