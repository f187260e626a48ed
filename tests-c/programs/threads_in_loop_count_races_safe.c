// expect: safe
// timeout: 200
// Any number of workers (an input, their handles in a heap block) bump a
// shared count under a mutex; main reads the count only after the join
// loop. Races checked (the default) for any number of workers: the counter
// abstraction's race condition
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int done = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  done = done + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000) {
    return 0;
  }
  pthread_t *ids = malloc(n * sizeof(pthread_t));
  for (int i = 0; i < n; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (int i = 0; i < n; i++) {
    pthread_join(ids[i], 0);
  }
  free(ids);
  if (done != n) {
    reach_error();
  }
  return 0;
}
