// expect: safe
// args: --engine magic --no-races
// Main writes stage 1 and raises ready; the worker waits for ready and writes stage 2; main joins and asserts stage 2. The shared variables take constant values only, so MAGIC composes the threads with them (invariant: after the join, stage == 2).
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
  assert(stage == 2);
  return 0;
}
