// expect: safe
// C11 threads: a consumer waits on a cnd_t in a loop until the producer has
// published under the mutex; no race, and the value is the one published.
#include <threads.h>
#include <assert.h>

mtx_t m;
cnd_t ready_cv;
int ready, data;

int producer(void *arg) {
  mtx_lock(&m);
  data = 42;
  ready = 1;
  cnd_signal(&ready_cv);
  mtx_unlock(&m);
  return 0;
}

int main(void) {
  thrd_t t;
  mtx_init(&m, mtx_plain);
  cnd_init(&ready_cv);
  thrd_create(&t, producer, 0);
  mtx_lock(&m);
  while (!ready)
    cnd_wait(&ready_cv, &m);
  assert(data == 42);
  mtx_unlock(&m);
  thrd_join(t, 0);
  return 0;
}
