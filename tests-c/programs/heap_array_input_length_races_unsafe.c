// expect: unsafe
// args: --races
// an array of an input length n >= 1 (one element, any, kept exactly): one
// worker writes the first element, the other the last, without a lock;
// with n = 1 they are the same element, a data race
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int *a;
int n;

void *first(void *arg) {
  a[0] = 1;
  return 0;
}

void *last(void *arg) {
  a[n - 1] = 2;
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1)
    return 0;
  a = malloc(n * sizeof(int));
  pthread_t t1, t2;
  pthread_create(&t1, 0, first, 0);
  pthread_create(&t2, 0, last, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  free(a);
  return 0;
}
