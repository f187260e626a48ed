// expect: unknown
// args: --no-races
// a deadlock that would need the value of an element the model of arrays of run-time length does not track (it reads any value there): no counterexample (the element is 0, so main never takes the mutex), and no proof either (the deadlock check involves both threads, so no one thread's read vouches for the value)
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
  if (a[1] == 5)
    pthread_mutex_lock(&m);
  pthread_join(t, 0);
  return 0;
}
