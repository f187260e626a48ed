// expect: unknown
// args: --property valid-memsafety
// true verdict: unsafe
// p[3] on a two-element array computes the address where `b` lies in the
// model; C forbids leaving the array, so the arithmetic gives up instead of
// writing `b` (which would prove memory safety wrongly).
#include <pthread.h>

int a[2];
int b;
int *p;
int *pb;

void *worker(void *arg) {
  p[3] = 1;
  return 0;
}

int main(void) {
  pb = &b;
  p = a;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return *pb;
}
