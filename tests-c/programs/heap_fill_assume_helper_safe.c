// expect: safe
// a worker fills a heap array of an input length allocated through a cast
// product; main joins it and checks an element that an input chooses,
// its range stated through an assume helper that calls abort(): the
// inference needs `k < n` where the element is read, which the guard of
// the step before states of the copy of `k` (two variables carried along
// the steps that keep them)
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

void assume(int cond) {
  if (!cond) {
    abort();
  }
}

int *cells;
int len;

void *filler(void *arg) {
  for (int i = 0; i < len; i++) {
    cells[i] = 3;
  }
  return 0;
}

int main(void) {
  pthread_t t;
  len = __VERIFIER_nondet_int();
  assume(len > 0);
  cells = (int *)malloc(sizeof(int) * len);
  pthread_create(&t, 0, filler, 0);
  pthread_join(t, 0);
  int k = __VERIFIER_nondet_int();
  assume(0 <= k && k < len);
  if (cells[k] != 3) {
    reach_error();
  }
  return 0;
}
