// expect: unsafe
// args: --engine magic --no-races
// Main asserts stage 1 after the join, but the worker has written 2 by then: MAGIC's counterexample runs main to ready = 1, the worker to its end, then main's assertion.
#include <assert.h>
#include <pthread.h>

int ready = 0;
int stage = 0;

void *worker(void *arg) {
  while (ready == 0) {
  }
  stage = 2;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  stage = 1;
  ready = 1;
  pthread_join(t, 0);
  assert(stage == 1);
  return 0;
}
