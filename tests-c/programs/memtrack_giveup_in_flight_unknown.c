// expect: unknown
// args: --property valid-memsafety
// true verdict: safe
// `realloc` grows a buffer to a size computed in bytes; the model cannot
// copy the old block into the new one here and gives up, while the new
// block's only pointer is still in flight inside the call. That state is
// no lost block (the thread is stuck where its temporaries are dead): the
// answer is `unknown`, not a violation of valid-memtrack.
#include <pthread.h>
#include <stdlib.h>

int *buf;
int cap;

void *worker(void *arg) {
  buf[cap - 1] = 9;
  return 0;
}

int main(void) {
  pthread_t t;
  cap = 2;
  buf = malloc(sizeof(int) * 2);
  buf[0] = 1;
  buf[1] = 2;
  size_t bytes = (size_t)cap * 2 * sizeof(int);
  buf = realloc(buf, bytes);
  if (!buf)
    return 0;
  cap = cap * 2;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(buf);
  return 0;
}
