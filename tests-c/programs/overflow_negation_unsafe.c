// expect: unsafe
// args: --property no-overflow
// A worker negates an input and divides by -1: both overflow for INT_MIN.
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int out;

void *worker(void *arg) {
  int x = __VERIFIER_nondet_int();
  if (x < -5)
    out = x / -1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
