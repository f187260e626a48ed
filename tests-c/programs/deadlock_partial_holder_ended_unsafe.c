// expect: unsafe
// a worker returns early on an error path without releasing the lock; the
// logger then waits for it forever while main keeps running (a partial
// deadlock: the holder has ended, nobody can release the mutex)
#include <pthread.h>

pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
int lines;
extern int __VERIFIER_nondet_int(void);

void *worker(void *arg) {
  pthread_mutex_lock(&log_lock);
  if (__VERIFIER_nondet_int() < 0) {
    return 0; /* the error path forgets the unlock */
  }
  lines++;
  pthread_mutex_unlock(&log_lock);
  return 0;
}

void *logger(void *arg) {
  pthread_mutex_lock(&log_lock);
  lines = 0;
  pthread_mutex_unlock(&log_lock);
  return 0;
}

int main(void) {
  pthread_t w, l;
  pthread_create(&w, 0, worker, 0);
  pthread_create(&l, 0, logger, 0);
  while (__VERIFIER_nondet_int()) {
  }
  return 0;
}
