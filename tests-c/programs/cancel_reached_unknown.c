// expect: unknown
// true verdict: safe
// Thread cancellation is not modelled: a pthread_cancel that an execution
// reaches gives up there (the answer names it), and the cancellation
// state calls report the default state.
#include <pthread.h>

int done = 0;

void *worker(void *arg) {
  int old;
  pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
  pthread_testcancel();
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_cancel(t);
  pthread_join(t, 0);
  return 0;
}
