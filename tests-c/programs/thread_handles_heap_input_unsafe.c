// expect: unsafe
// args: --no-races
// the thread handles in a heap block of an input length: the join loop
// misses the last worker, which may not have counted yet
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) {
    return 0;
  }
  pthread_t *ids = malloc(n * sizeof(pthread_t));
  for (int i = 0; i < n; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (int i = 0; i < n - 1; i++) {
    pthread_join(ids[i], 0);
  }
  if (count != n) {
    reach_error();
  }
  return 0;
}
