// expect: unsafe
// args: --races
// Any number of workers (an input) add to a shared count without the
// mutex: two workers race on it (found among the first instances)
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int done = 0;

void *worker(void *arg) {
  done = done + 1;
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
  return 0;
}
