// expect: safe
// args: --no-races --no-deadlocks
// timeout: 30
// Four workers fill their own slices of a global array (`a[t*K + i]`, 50
// elements each) in loops; main joins them in a loop and checks every
// element. Proved by the partial-order reduced search: a worker's loop
// counter stays within its loop's bounds, so the branches of its store
// that would write another worker's slice are dead, and main cannot pass
// the join of a worker that has not ended, so its reads are no dependence
// of the workers' stores. (The full search, for a certificate, does not
// end in time.)
#include <pthread.h>
extern void reach_error(void);
#define T 4
#define K 50
int a[T * K];

void *worker(void *arg) {
  int t = (int)(long)arg;
  for (int i = 0; i < K; i++)
    a[t * K + i] = t + 1;
  return 0;
}

int main(void) {
  pthread_t th[T];
  for (long t = 0; t < T; t++)
    pthread_create(&th[t], 0, worker, (void *)t);
  for (int t = 0; t < T; t++)
    pthread_join(th[t], 0);
  for (int t = 0; t < T; t++)
    for (int i = 0; i < K; i++)
      if (a[t * K + i] != t + 1)
        reach_error();
  return 0;
}
