// expect: unsafe
// args: --property unreach-call
// A worker computes the maximum of a heap array of an input length
// (arbitrary contents) but starts from `m`'s initial 0 instead of the
// first element; main joins it and checks that no element exceeds the
// maximum: with one positive element, it does.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int *a;
int n;
int m;

void *largest(void *arg) {
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
