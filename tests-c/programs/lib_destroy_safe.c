// expect: safe
// args: --concurrent buf_put:2 --init buf_new(2) --fini buf_destroy(_) --property valid-memcleanup
// A bounded buffer made by its constructor, with the capacity given on the
// command line (`--init buf_new(2)`), and freed by its destructor:
// `--fini buf_destroy` calls it once after both threads' puts. Everything
// the constructor allocated is freed when the program ends.
#include <pthread.h>
#include <stdlib.h>

struct buf {
  pthread_mutex_t lock;
  int *items;
  int count;
  int cap;
};

struct buf *buf_new(int cap) {
  struct buf *b = malloc(sizeof(struct buf));
  if (!b)
    abort();
  b->cap = cap;
  b->items = malloc(cap * sizeof(int));
  if (!b->items)
    abort();
  pthread_mutex_init(&b->lock, 0);
  b->count = 0;
  return b;
}

void buf_put(struct buf *b, int v) {
  pthread_mutex_lock(&b->lock);
  if (b->count < b->cap) {
    b->items[b->count] = v;
    b->count++;
  }
  pthread_mutex_unlock(&b->lock);
}

void buf_destroy(struct buf *b) {
  free(b->items);
  free(b);
}
