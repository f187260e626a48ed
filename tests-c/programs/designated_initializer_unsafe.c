// expect: unsafe
// args: --no-races
// designated_initializer_safe.c, but a[3] is not named by the initializer, so
// it is zero, not 5: the assertion on it fails after the thread has run.
#include <assert.h>
#include <pthread.h>

struct inner { int v; int w; };
struct lock { struct inner tail; int owner; int count; };
struct lock l = { .owner = -1, .tail = { .w = 7 }, };
int a[6] = { [4] = 3, 5, [1] = 2 };

void *worker(void *arg) {
  __atomic_fetch_add(&l.count, 1, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(l.count == 1 && l.tail.w == 7);
  assert(a[3] == 5);
  return 0;
}
