// expect: safe
// args: --no-races
// timeout: 300
// workers started in a loop take tickets (an unbounded local): the counter abstraction forgets their values;
// the view program tracks one worker's ticket exactly, its anonymous steps rely on what holds of the tracked
// worker in their local state, and tickets drawn from the growing `next_ticket` differ (SOUNDNESS.md, tickets)
// invariant: the worker whose ticket equals serving is the only one in the critical section
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int next_ticket = 0;
int serving = 0;
int inside = 0;

void *worker(void *arg) {
  int my;
  pthread_mutex_lock(&m);
  my = next_ticket;
  next_ticket = next_ticket + 1;
  pthread_mutex_unlock(&m);
  while (1) {
    pthread_mutex_lock(&m);
    if (serving == my) {
      pthread_mutex_unlock(&m);
      break;
    }
    pthread_mutex_unlock(&m);
  }
  inside = inside + 1;
  if (inside != 1) {
    reach_error();
  }
  inside = inside - 1;
  pthread_mutex_lock(&m);
  serving = serving + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
