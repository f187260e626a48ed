// expect: unsafe
// the twin of heap_fill_assume_helper_safe: the worker starts at element
// 1, so element 0 keeps what malloc left there, which need not be 3 (the
// checks are by default: the race check sees no race, main reads after
// the join)
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
  for (int i = 1; i < len; i++) {
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
