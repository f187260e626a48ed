// expect: unsafe
// args: --no-races
// As cancel_state_safe.c, but the worker leaves cancellation enabled: a
// request acted on at the first pthread_testcancel cuts the two updates
// in half (a == 1, b == 0).
#include <assert.h>
#include <pthread.h>

int a = 0;
int b = 0;
int last = 0;

void *worker(void *arg) {
  int old;
  pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
  a = 1;
  pthread_testcancel();
  b = 1;
  pthread_setcancelstate(old, 0);
  pthread_testcancel();
  last = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  void *res = 0;
  pthread_create(&t, 0, worker, 0);
  pthread_cancel(t);
  pthread_join(t, &res);
  assert(a == b);
  if (res == PTHREAD_CANCELED)
    assert(last == 0);
  else
    assert(last == 1);
  return 0;
}
