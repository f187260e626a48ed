// expect: unsafe
// A worker fills a heap array of an input length with its indices, but
// main checks the element at a constant index without joining it first:
// it may read the element before the worker writes it (a data race, and
// an uninitialised value that need not be 20).
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int *a;
int n;

void *worker(void *arg) {
  for (int i = 0; i < n; i++)
    a[i] = i;
  return 0;
}

int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000)
    return 0;
  a = malloc(sizeof(int) * (size_t)n);
  pthread_create(&t, 0, worker, 0);
  if (n > 20 && a[20] != 20)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
