// expect: safe
// args: --no-races
// A recursive function whose depth depends on a value (deeper than the
// unrolling bound: a give-up) is called only when a counter that
// the workers keep even under a lock is odd, which never happens.
#include <pthread.h>

extern void reach_error(void);

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 1); }

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  counter += 2;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (counter % 2 == 1) {
    if (depth(counter) != counter)
      reach_error();
  }
  return 0;
}
