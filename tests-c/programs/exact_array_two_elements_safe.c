// expect: safe
// As exact_array_two_elements_unsafe.c, but main checks one element at an
// input index against what the worker wrote: proved by the model that
// keeps one element exactly (whichever index main reads).
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int *a;
int n;

void *fill(void *arg) {
  a[3] = 6;
  a[4] = 8;
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 10 || n > 100000)
    return 0;
  a = calloc(n, sizeof(int));
  pthread_t t;
  pthread_create(&t, 0, fill, 0);
  pthread_join(t, 0);
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n && a[j] > 8)
    reach_error();
  return 0;
}
