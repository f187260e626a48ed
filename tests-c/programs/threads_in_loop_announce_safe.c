// expect: safe
// args: --no-races
// workers started in a loop announce themselves, read how many finished
// (an unbounded value: the counter abstraction forgets it) and how many
// started, then finish, each access in an atomic section (no data race).
// A worker that has announced itself and not finished makes started
// exceed finished, so the first value it read is below the second.
// Proved by a view program: one worker tracked exactly (the value it read
// is at most finished), the others counted and assumed to be like it.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int started = 0;
int finished = 0;

void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  started++;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  int seen = finished;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  int now = started;
  __VERIFIER_atomic_end();
  if (!(seen < now)) {
    reach_error();
  }
  __VERIFIER_atomic_begin();
  finished++;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
