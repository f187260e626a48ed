// expect: unsafe
// the heap block of thread handles is freed before the joins read it
// (valid-deref)
#include <pthread.h>
#include <stdlib.h>
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
  if (n < 1 || n > 100) {
    return 0;
  }
  pthread_t *ids = (pthread_t *)calloc(n, sizeof *ids);
  for (int i = 0; i < n; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  free(ids);
  for (int i = 0; i < n; i++) {
    pthread_join(ids[i], 0);
  }
  return 0;
}
