// expect: safe
// the thread handles in a heap block a global pointer holds, allocated by
// calloc as a statement of main (`sizeof *threads` the size of one)
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;
pthread_t *threads;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 3) {
    return 0;
  }
  threads = calloc(n, sizeof *threads);
  for (int i = 0; i < n; i++) {
    pthread_create(&threads[i], 0, worker, 0);
  }
  for (int i = 0; i < n; i++) {
    pthread_join(threads[i], 0);
  }
  free(threads);
  pthread_mutex_lock(&m);
  if (count != n) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}
