// expect: safe
// args: --property unreach-call
// A worker computes the maximum of a heap array of an input length
// (arbitrary contents), reading each element once into a local; main
// joins it and checks that no element exceeds the maximum. The proof
// needs, of the element the model tracks, `i <= k || a_k <= m`: an
// implication whose conclusion takes many values where its guard fails.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int *a;
int n;
int m;

void *largest(void *arg) {
  m = a[0];
  for (int i = 1; i < n; i++) {
    int v = a[i];
    if (v > m)
      m = v;
  }
  return 0;
}

int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000)
    return 0;
  a = malloc(sizeof(int) * n);
  pthread_create(&t, 0, largest, 0);
  pthread_join(t, 0);
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= n)
    return 0;
  if (a[j] > m)
    reach_error();
  return 0;
}
