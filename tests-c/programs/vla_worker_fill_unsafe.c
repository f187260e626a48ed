// expect: unsafe
// args: --no-races
// the twin of vla_worker_fill_safe.c checks before the join: the worker
// may not have reached the element yet
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int *cells;
int n;

void *fill(void *arg) {
  for (int i = 0; i < n; i++)
    cells[i] = 1;
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 10000)
    return 0;
  int a[n];
  cells = a;
  pthread_t t;
  pthread_create(&t, 0, fill, 0);
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n)
    __VERIFIER_assert(a[j] == 1);
  pthread_join(t, 0);
  return 0;
}
