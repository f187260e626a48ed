// expect: unsafe
// args: --no-races --no-heap-tails
// A zeroed array of input length from a wrapper of `calloc` whose size
// argument is a variable (no `sizeof` at the call): typed `long` by the
// store of its result. A worker adds 5 to the last element; with one
// element, the first is the last, and the sum is 10.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

void *zalloc(size_t count, size_t size) { return calloc(count, size); }

long *a;
int n;

void *worker(void *arg) {
  a[n - 1] += 5;
  return 0;
}

int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 5)
    return 0;
  size_t esz = sizeof(long);
  a = zalloc((size_t)n, esz);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (a[0] + a[n - 1] != 5)
    reach_error();
  free(a);
  return 0;
}
