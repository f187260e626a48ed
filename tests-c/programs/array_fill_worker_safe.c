// expect: safe
// args: --no-races
// a worker fills a heap array of an input length; main joins it and
// checks any one element
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int *a;
int n;

void *fill(void *arg) {
  for (int i = 0; i < n; i++) {
    a[i] = 7;
  }
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1) {
    return 0;
  }
  a = malloc(n * sizeof(int));
  pthread_t t;
  pthread_create(&t, 0, fill, 0);
  pthread_join(t, 0);
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n && a[j] != 7) {
    reach_error();
  }
  return 0;
}
