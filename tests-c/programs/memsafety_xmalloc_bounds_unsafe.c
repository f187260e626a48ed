// expect: unsafe
// args: --property valid-memsafety
// A heap array of an input length allocated through an allocation
// wrapper; the worker's loop runs one element past its end.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

void *xmalloc(size_t size) {
  void *p = malloc(size);
  if (p == NULL)
    abort();
  return p;
}

int *a;
int n;

void *worker(void *arg) {
  for (int i = 0; i <= n; i++)
    a[i] = 1;
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n < 1000);
  a = xmalloc(n * sizeof(int));
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(a);
  return 0;
}
