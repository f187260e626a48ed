// expect: unknown
// true verdict: safe
// args: --no-races
// The assertion compares a double: the model abstracts floating-point
// values, so the comparison may be false there, and the counterexample
// that takes it observes a value no execution has: unknown.
#include <assert.h>
#include <pthread.h>

double total = 0.0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  total += 0.25;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(total > 0.0);
  return 0;
}
