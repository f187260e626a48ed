// expect: unknown
// true verdict: safe
// args: --engine magic --no-races
// The threads share a counter they increment (count = count + 1, a computed value): MAGIC's components share only variables of finitely many constant values, so it says why it does not apply.
#include <assert.h>
#include <pthread.h>

int count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(count == 2);
  return 0;
}
