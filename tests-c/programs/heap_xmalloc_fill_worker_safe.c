// expect: safe
// A worker fills a heap array of an input length allocated through an
// allocation wrapper (`xmalloc`: malloc, abort on null, return); main
// joins it and checks an element an input chooses. The wrapper's call is
// the allocation it makes, so its length is the `n` of the product.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

void *xmalloc(size_t size) {
  void *p = malloc(size);
  if (!p)
    abort();
  return p;
}

int *a;
int n;

void *worker(void *arg) {
  for (int i = 0; i < n; i++)
    a[i] = 7;
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n < 100000);
  a = xmalloc(sizeof(int) * (size_t)n);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  int j = __VERIFIER_nondet_int();
  __VERIFIER_assume(j >= 0 && j < n);
  if (a[j] != 7)
    reach_error();
  return 0;
}
