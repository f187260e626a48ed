// expect: safe
// args: --no-races
// pointers into a heap array of input length (at least 3): an element reached by pointer arithmetic, a worker writing through its argument, pointer difference, free
#include <stdlib.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int *a; int n;
void *w(void *arg) { int *p = (int *)arg; p[1] = 5; if (p[1] != 5) reach_error(); return 0; }
int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  if (n < 3) return 0;
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
