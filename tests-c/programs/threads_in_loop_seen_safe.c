// expect: safe
// A worker per request, each counts itself into an atomic `active` under a
// mutex, copies it into a local and counts itself out: every copy is 1.
// The local holds a value read from shared memory: the counter abstraction
// speculates the values of `active` and checks that no other is read.
#include <pthread.h>
#include <stdatomic.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
_Atomic int active = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  active++;
  int seen = active;
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
