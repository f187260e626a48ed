// expect: safe
// args: --no-races
// Designated initializers, nested and out of order, of a global struct of
// structs and an array: the named cells get their values, the rest are zero.
#include <assert.h>
#include <pthread.h>

struct inner { int v; int w; };
struct lock { struct inner tail; int owner; int count; };
struct lock l = { .owner = -1, .tail = { .w = 7 }, };
int a[6] = { [4] = 3, 5, [1] = 2 };
struct lock ls[2] = { [1].tail.v = 9, [0] = { .count = 4 } };

void *worker(void *arg) {
  __atomic_fetch_add(&l.count, 1, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(l.tail.v == 0 && l.tail.w == 7 && l.owner == -1 && l.count == 1);
  assert(a[0] == 0 && a[1] == 2 && a[2] == 0 && a[4] == 3 && a[5] == 5);
  assert(ls[0].count == 4 && ls[0].tail.v == 0 && ls[1].tail.v == 9);
  return 0;
}
