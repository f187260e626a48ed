// expect: unsafe
// args: --races
// the twin of race_array_input_ranges_safe.c lets the first thread write up to index 3, where the second may write too: a data race on a[3]
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

int a[6];

void *low(void *arg) {
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i <= 3)
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
