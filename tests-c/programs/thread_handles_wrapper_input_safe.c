// expect: safe
// args: --no-races
// timeout: 120
// the thread handles in a block of an input length allocated through a
// wrapper (xmalloc: malloc, a null test that aborts, return): every worker
// joined before the count is checked
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes);
  if (p == NULL) {
    abort();
  }
  return p;
}

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000) {
    return 0;
  }
  pthread_t *ids = xmalloc(sizeof(pthread_t) * (size_t)n);
  for (int i = 0; i < n; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (int i = 0; i < n; i++) {
    pthread_join(ids[i], 0);
  }
  free(ids);
  if (count != n) {
    reach_error();
  }
  return 0;
}
