// expect: safe
// args: --races
// two threads each write an element of a shared array of 6 chosen by an input, the first in [0, 3), the second in [3, 6): never the same element (the differential test of tails also checks it with the array as a tail)
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

int a[6];

void *low(void *arg) {
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < 3)
    a[i] = 1;
  return 0;
}

void *high(void *arg) {
  int j = __VERIFIER_nondet_int();
  if (j >= 3 && j < 6)
    a[j] = 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, low, 0);
  pthread_create(&t2, 0, high, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
