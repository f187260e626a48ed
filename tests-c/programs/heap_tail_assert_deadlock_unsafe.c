// expect: unsafe
// a worker that fails an assertion on an element of a heap array of an
// input length, and a deadlock all the same: main takes the mutex twice.
// The deadlock check does not check assertions (a failed one aborts):
// the worker's check neither hides the deadlock nor stands for a bug
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int *a;
int n;

void *worker(void *arg) {
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n)
    __VERIFIER_assert(a[j] != 7);
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100)
    return 0;
  a = calloc(n, sizeof(int));
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&m);
  return 0;
}
