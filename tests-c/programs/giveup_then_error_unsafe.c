// expect: unsafe
// args: --no-races
// a thread is created in an unbounded loop (a second creation at the same
// site is not modelled: give-up), but one creation already reaches the
// error: the search must go on past the give-up states
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int x = 0;

void *worker(void *arg) {
  x = x + 1;
  return 0;
}

int main(void) {
  pthread_t h;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&h, 0, worker, 0);
  }
  if (x == 1) {
    reach_error();
  }
  return 0;
}
