// expect: unsafe
// C11 thread-specific storage: each worker keeps its own value under one
// tss_t key (tss_get sees the thread's own tss_set), and the destructor
// runs only for non-NULL values: the worker that stores NULL is not counted.
#include <assert.h>
#include <threads.h>

tss_t key;
mtx_t m;
int destroyed = 0;

void release(void *p) {
  mtx_lock(&m);
  destroyed++;
  mtx_unlock(&m);
}

int worker(void *arg) {
  assert(tss_get(key) == 0);
  tss_set(key, arg);
  assert(tss_get(key) == arg);
  return 0;
}

int main(void) {
  thrd_t a, b;
  int x, y;
  mtx_init(&m, mtx_plain);
  if (tss_create(&key, release) != thrd_success)
    return 0;
  thrd_create(&a, worker, &x);
  thrd_create(&b, worker, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  mtx_lock(&m);
  assert(destroyed == 2);
  mtx_unlock(&m);
  tss_delete(key);
  return 0;
}
