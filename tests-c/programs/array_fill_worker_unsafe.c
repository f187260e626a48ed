// expect: unsafe
// args: --no-races
// a worker fills a heap array of an input length; main checks an element
// before it joins the worker
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int *a;
int n;

void *fill(void *arg) {
  for (int i = 0; i < n; i++) {
    a[i] = 7;
  }
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1) {
    return 0;
  }
  a = malloc(n * sizeof(int));
  pthread_t t;
  pthread_create(&t, 0, fill, 0);
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n && a[j] != 7) {
    reach_error();
  }
  pthread_join(t, 0);
  return 0;
}
