// expect: unknown
// args: --no-races
// the thread handles in a block of an input length that is not bounded:
// for large lengths `n * sizeof(pthread_t)` wraps around size_t, the block
// is smaller than n handles and the creation loop writes past it (not
// modelled: the allocation gives up)
#include <pthread.h>
#include <stdlib.h>
extern unsigned long __VERIFIER_nondet_ulong(void);

void *worker(void *arg) { return 0; }

int main(void) {
  unsigned long n = __VERIFIER_nondet_ulong();
  pthread_t *ids = malloc(n * sizeof(pthread_t));
  for (unsigned long i = 0; i < n; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (unsigned long i = 0; i < n; i++) {
    pthread_join(ids[i], 0);
  }
  free(ids);
  return 0;
}
