// expect: unsafe
// A lock wrapper annotated `acquire_capability` that does not always
// acquire: on one path it assumes the caller already holds the mutex and
// returns without it.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
int count __attribute__((guarded_by(mu)));

void take(pthread_mutex_t *m) __attribute__((acquire_capability(m)));
void take(pthread_mutex_t *m) {
  if (__VERIFIER_nondet_int())
    pthread_mutex_lock(m);
}

void *worker(void *arg) {
  pthread_mutex_lock(&mu);
  count++;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  take(&mu);
  count = 0;
  return 0;
}
