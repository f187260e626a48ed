// expect: unsafe
// args: --no-races
// C library functions a concurrent program calls without defining them:
// abs and labs give C's result, rand any value in [0, RAND_MAX], time any
// non-negative value (also through its argument); srand changes nothing
// that matters. rand() may return RAND_MAX itself.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total = 0;

void *worker(void *arg) {
  int x = __VERIFIER_nondet_int();
  if (x < -1000 || x > 1000)
    return 0;
  pthread_mutex_lock(&m);
  total += abs(x) + labs(-1L);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  long now;
  srand((unsigned)time(&now));
  assert(now >= 0);
  int r = rand();
  assert(r >= 0 && r < RAND_MAX);
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total >= 0);
  return 0;
}
