// expect: unsafe
// args: --no-races
// pthread_create inside a loop with a nondet trip count: the bug needs three instances of the site
// interleaving: the loop creates 3 threads, each runs its increment, main reads count == 3
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, worker, 0);
  }
  pthread_mutex_lock(&m);
  if (count >= 3) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}
