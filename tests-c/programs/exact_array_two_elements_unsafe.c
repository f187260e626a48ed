// expect: unsafe
// A worker writes two elements of a heap array of an input length (at
// least 10); main checks a relation of the two, which holds: the error is
// reached. The model that keeps one element exactly cannot vouch for a
// trace reading two, and the model of short arrays holds 8 elements at
// most; the exact array model (every element an element of an IR array,
// searched by bounded model checking) finds the trace.
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int *a;
int n;

void *fill(void *arg) {
  a[3] = 6;
  a[4] = 8;
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 10 || n > 100000)
    return 0;
  a = calloc(n, sizeof(int));
  pthread_t t;
  pthread_create(&t, 0, fill, 0);
  pthread_join(t, 0);
  if (a[3] + a[4] == 14)
    reach_error();
  return 0;
}
