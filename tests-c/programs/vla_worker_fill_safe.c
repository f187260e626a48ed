// expect: safe
// args: --no-races
// main's variable-length array of an input length is filled by a worker
// through a pointer; after the join every element is 1
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
  pthread_join(t, 0);
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n)
    __VERIFIER_assert(a[j] == 1);
  return 0;
}
