// expect: safe
// A worker fills a heap array of an input length with its indices; main
// joins it and checks the element at a constant index. The proof: the
// worker loop's `i <= k ∨ a_k = k` of the tracked element `k`, in every
// interleaving with main (the pass with disjunctive candidates samples
// more runs).
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int *a;
int n;

void *worker(void *arg) {
  for (int i = 0; i < n; i++)
    a[i] = i;
  return 0;
}

int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000)
    return 0;
  a = malloc(sizeof(int) * (size_t)n);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (n > 20 && a[20] != 20)
    reach_error();
  return 0;
}
