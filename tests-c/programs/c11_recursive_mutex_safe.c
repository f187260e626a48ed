// expect: safe
// args: --no-races
// C11 recursive mutexes: a thread that holds `mtx_plain | mtx_recursive`
// mutex may lock it again (a nested helper does), and must unlock it as
// often; the counter updates under it are never lost, and no thread waits
// forever.
#include <assert.h>
#include <threads.h>

mtx_t m;
int count = 0;

void add(int k) {
  mtx_lock(&m);
  count += k;
  mtx_unlock(&m);
}

int worker(void *arg) {
  mtx_lock(&m);
  add(1);
  add(1);
  mtx_unlock(&m);
  return 0;
}

int main(void) {
  thrd_t t;
  mtx_init(&m, mtx_plain | mtx_recursive);
  thrd_create(&t, worker, 0);
  mtx_lock(&m);
  add(10);
  mtx_unlock(&m);
  thrd_join(t, 0);
  assert(count == 12);
  mtx_destroy(&m);
  return 0;
}
