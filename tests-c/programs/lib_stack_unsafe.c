// expect: unsafe
// args: --concurrent push:2,pop --no-races
// A stack library without main checked with --concurrent: pointer arguments share one stack object; unlocked push and pop let the element count and the top index disagree.
#include <assert.h>

struct stack {
  int top;
  int count;
  int items[4];
};

void push(struct stack *s, int v) {
  int t = s->top;
  if (t < 4) {
    s->items[t] = v;
    s->top = t + 1;
    s->count = s->count + 1;
    assert(s->count == s->top);
  }
}

int pop(struct stack *s) {
  int t = s->top;
  if (t > 0) {
    s->top = t - 1;
    s->count = s->count - 1;
    assert(s->count == s->top);
    return s->items[t - 1];
  }
  return -1;
}
