// expect: unsafe
// a global pointer to thread handles is used before it is allocated: a
// null dereference (valid-deref)
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int count = 0;
pthread_t *threads;

void *worker(void *arg) {
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 2) {
    return 0;
  }
  for (int i = 0; i < n; i++) {
    pthread_create(&threads[i], 0, worker, 0);
  }
  threads = malloc(n * sizeof(pthread_t));
  for (int i = 0; i < n; i++) {
    pthread_join(threads[i], 0);
  }
  free(threads);
  return 0;
}
