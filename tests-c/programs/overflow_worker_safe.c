// expect: safe
// args: --property no-overflow
// The same workers add inputs of at most 1000000000: two of them fit in `int`.
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > 1000000000)
    return 0;
  pthread_mutex_lock(&m);
  total = total + x;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
