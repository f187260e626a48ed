// expect: unsafe
// A worker per request, each counts itself into an atomic `active`, with the
// mutex released too early: a second worker can count itself in before
// the first one copies `active`, which is then 2.
#include <pthread.h>
#include <stdatomic.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
_Atomic int active = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  active++;
  pthread_mutex_unlock(&m);
  int seen = active;
  pthread_mutex_lock(&m);
  active--;
  pthread_mutex_unlock(&m);
  if (seen != 1) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
