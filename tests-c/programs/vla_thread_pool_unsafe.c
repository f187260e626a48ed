// expect: unsafe
// args: --no-races
// as vla_thread_pool_safe.c, but main joins all workers but the last before it counts: the last may not have added yet
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
  for (int i = 0; i < n - 1; i++) {
    pthread_join(pool[i], 0);
  }
  assert(total == n);
  return 0;
}
