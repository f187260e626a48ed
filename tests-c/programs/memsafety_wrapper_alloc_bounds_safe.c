// expect: safe
// args: --property valid-memsafety
// A buffer of `n` ints allocated through a wrapper of `malloc` (the size in
// bytes computed by the caller): a worker writes its last element, main
// frees it after the join.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

void *xmalloc(size_t bytes) { return malloc(bytes); }

int *buf;
int n;

void *worker(void *arg) {
  if (buf)
    buf[n - 1] = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 4)
    return 0;
  size_t bytes = (size_t)n * sizeof(int);
  buf = xmalloc(bytes);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(buf);
  return 0;
}
