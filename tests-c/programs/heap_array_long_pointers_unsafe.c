// expect: unsafe
// args: --no-races
// the twin of heap_array_long_pointers_safe.c allows two elements: the worker then writes the last one
#include <stdlib.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int *a; int n;
void *w(void *arg) { int *p = (int *)arg; p[1] = 5; if (p[1] != 5) reach_error(); return 0; }
int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  if (n < 2) return 0;
  a = malloc(n * sizeof(int));
  int *q = a + n - 1;
  *q = 3;
  pthread_create(&t, 0, w, a);
  pthread_join(t, 0);
  if (a[n - 1] != 3) reach_error();
  if (q - a != n - 1) reach_error();
  free(a);
  return 0;
}
