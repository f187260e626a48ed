// expect: safe
// args: --no-races
// a pool of threads in a variable-length array whose length is an input (1 to 3): each worker adds to a lock-protected total; after joining them all, main finds one per worker
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  total = total + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 3);
  pthread_t pool[n];
  for (int i = 0; i < n; i++) {
    pthread_create(&pool[i], 0, worker, 0);
  }
  for (int i = 0; i < n; i++) {
    pthread_join(pool[i], 0);
  }
  assert(total == n);
  return 0;
}
