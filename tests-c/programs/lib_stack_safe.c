// expect: safe
// args: --concurrent push,pop --init reset --no-races
// The stack library of lib_stack_unsafe.c with a mutex held by push and pop, and an initialisation function run before the threads: count and top always agree.
#include <assert.h>
#include <pthread.h>

struct stack {
  int top;
  int count;
  int items[4];
};

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void reset(struct stack *s) {
  s->top = 0;
  s->count = 0;
}

void push(struct stack *s, int v) {
  pthread_mutex_lock(&lock);
  int t = s->top;
  if (t < 4) {
    s->items[t] = v;
    s->top = t + 1;
    s->count = s->count + 1;
    assert(s->count == s->top);
  }
  pthread_mutex_unlock(&lock);
}

int pop(struct stack *s) {
  int r = -1;
  pthread_mutex_lock(&lock);
  int t = s->top;
  if (t > 0) {
    s->top = t - 1;
    s->count = s->count - 1;
    assert(s->count == s->top);
    r = s->items[t - 1];
  }
  pthread_mutex_unlock(&lock);
  return r;
}
