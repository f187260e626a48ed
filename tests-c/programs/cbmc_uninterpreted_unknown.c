// expect: unknown
// true verdict: safe
// args: --no-races
// Two calls of an uninterpreted function with equal arguments agree for
// CBMC; the model gives each call any value, so the counterexample in
// which they differ rests on abstracted values: unknown, not unsafe.
#include <assert.h>
#include <pthread.h>

int __CPROVER_uninterpreted_h(int);

int a, b;

void *worker(void *arg) {
  b = __CPROVER_uninterpreted_h(7);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  a = __CPROVER_uninterpreted_h(7);
  pthread_join(t, 0);
  assert(a == b);
  return 0;
}
