// expect: safe
// args: --no-races
// a heap array whose length is any positive input (longer than 8 elements too: its tail is one tracked element) gets its last element from a producer under a lock; main reads it back after the join
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
  buf[0] = 7;
  pthread_create(&t, 0, producer, 0);
  pthread_join(t, 0);
  __VERIFIER_assert(buf[n - 1] == 42);
  return 0;
}
