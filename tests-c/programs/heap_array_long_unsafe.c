// expect: unsafe
// args: --no-races
// the twin of heap_array_long_safe.c writes the first element after the join: with one element it overwrites the last (found in the exact model of arrays of at most 8 elements)
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
void __VERIFIER_assert(int c) { if (!c) { ERROR: reach_error(); } }

int *buf;
int n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  buf[n - 1] = 42;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  if (n < 1) return 0;
  buf = malloc(sizeof(int) * n);
  pthread_create(&t, 0, producer, 0);
  pthread_join(t, 0);
  buf[0] = 7;
  __VERIFIER_assert(buf[n - 1] == 42);
  return 0;
}
