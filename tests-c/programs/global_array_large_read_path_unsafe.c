// expect: unsafe
// a worker sets one element of a global array of 10,000 integers (one
// element, any, kept exactly), and main expects another value there. On
// one path main first reads another element, which the model answers
// with any value: an error reached after that read is no counterexample.
// On the other path every element read is the kept one, so the error is
// real: found whichever path the search meets first
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int a[10000];
int seen;

void *worker(void *arg) {
  a[7000] = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (__VERIFIER_nondet_int())
    seen = a[3];
  if (a[7000] != 2)
    reach_error();
  return 0;
}
