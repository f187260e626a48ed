// expect: unsafe
// args: --no-races
// An array of input length allocated through a wrapper (`xmalloc(bytes)`,
// no `sizeof` at the `malloc`): its element type is the one its result is
// stored as. The worker leaves the last element unset (any value, as
// `malloc` gives it), and main finds it is not 7.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

void *xmalloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p)
    abort();
  return p;
}

int *a;
int n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *fill(void *arg) {
  pthread_mutex_lock(&m);
  for (int i = 0; i + 1 < n; i++)
    a[i] = 7;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 6)
    return 0;
  a = xmalloc(sizeof(int) * (size_t)n);
  pthread_create(&t, 0, fill, 0);
  pthread_join(t, 0);
  if (a[n - 1] != 7)
    reach_error();
  free(a);
  return 0;
}
