// expect: unsafe
// args: --no-races --extern-calls havoc
// As extern_havoc_safe.c, but the worker expects buf[1] to keep its
// initial 0, which `fill` may overwrite.
#include <assert.h>
#include <pthread.h>

void fill(int *data, int n);

int buf[4];
int limit = 10;

void *worker(void *arg) {
  fill(buf, 4);
  if (buf[0] > limit)
    buf[0] = limit;
  assert(limit == 10);
  assert(buf[0] <= 10);
  assert(buf[1] == 0);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
