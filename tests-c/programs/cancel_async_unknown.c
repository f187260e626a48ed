// expect: unknown
// true verdict: safe
// args: --no-races
// Asynchronous cancellation (the thread may end between any two
// instructions) is not modelled: setting it gives up where reached.
#include <assert.h>
#include <pthread.h>

int x = 0;

void *worker(void *arg) {
  int old;
  pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old);
  x = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_cancel(t);
  pthread_join(t, 0);
  assert(x <= 1);
  return 0;
}
