// expect: unsafe
// args: --no-races --no-deadlocks
// Four workers fill their own 250-element slices of `int a[1000]`, but the
// third stops one element short of the end of its slice: main's check of
// that element fails after the joins.
#include <pthread.h>
extern void reach_error(void);
#define T 4
#define K 250
int a[T * K];

void *worker(void *arg) {
  int t = (int)(long)arg;
  int n = t == 2 ? K - 1 : K;
  for (int i = 0; i < n; i++)
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
