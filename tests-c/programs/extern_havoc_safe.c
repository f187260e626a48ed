// expect: safe
// args: --no-races --extern-calls havoc
// With --extern-calls havoc, a function without a definition may write any
// values into the objects its pointer arguments point into (and nowhere
// else: an assumption): `fill` may change `buf` but not `limit`, so the
// worker's clamp of buf[0] against the unchanged limit holds.
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
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
