// expect: unsafe
// args: --no-races
// as threads_in_loop_announce_safe.c, but the check wants two announced
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
  if (!(seen + 1 < now)) {
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
