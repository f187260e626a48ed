// expect: unsafe
// args: --no-races
// the twin of heap_tail_deadlock_unknown.c takes the mutex when the element is 0, as it is: the deadlock is found in the exact model of arrays of at most 8 elements
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int *a;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2)
    return 0;
  a = malloc(n * sizeof(int));
  a[1] = 0;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (a[1] == 0)
    pthread_mutex_lock(&m);
  pthread_join(t, 0);
  return 0;
}
