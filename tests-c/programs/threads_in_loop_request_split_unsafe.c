// expect: unsafe
// args: --no-races
// the worker-per-request server with the session's critical section split in two: another worker closes it in between
// interleaving: worker#1 opens and unlocks, worker#2 opens, checks and closes, worker#1 checks open == 0
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int open = 0;

void *handle(void *arg) {
  pthread_mutex_lock(&m);
  open = 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  if (open != 1) {
    reach_error();
  }
  open = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, handle, 0);
  }
  return 0;
}
