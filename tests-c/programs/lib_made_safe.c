// expect: safe
// args: --concurrent counter_add:2 --init counter_new --no-races
// A counter library whose object is made by its own constructor:
// `--init counter_new` calls it once, and the pointer it returns is what
// both threads' calls of counter_add get (not a zero-initialised object).
// The constructor sets the limit; adds under the mutex never pass it.
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);

struct counter {
  pthread_mutex_t lock;
  int value;
  int limit;
};

struct counter *counter_new(void) {
  struct counter *c = malloc(sizeof(struct counter));
  pthread_mutex_init(&c->lock, 0);
  c->value = 0;
  c->limit = 3;
  return c;
}

void counter_add(struct counter *c) {
  pthread_mutex_lock(&c->lock);
  if (c->limit != 3) {
    reach_error();
  }
  if (c->value < c->limit) {
    c->value = c->value + 1;
  }
  if (c->value > c->limit) {
    reach_error();
  }
  pthread_mutex_unlock(&c->lock);
}
