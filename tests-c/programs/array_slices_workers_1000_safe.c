// expect: safe
// args: --no-races --no-deadlocks
// timeout: 30
// Four workers fill their own 250-element slices of `int a[1000]` (a
// variable per element) in loops; main joins them in a loop and checks
// every element. Each access `a[t*K + i]` splits into 1,000 cases: the
// printed `.gc` of such a program must parse back (a chain of 1,000
// disjuncts was deeper than the parser's 512 levels), and its conditions
// stay shallow for the engines' recursive walks.
#include <pthread.h>
extern void reach_error(void);
#define T 4
#define K 250
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
