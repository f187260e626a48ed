// expect: unsafe
// args: --no-races
// a _Thread_local variable set by main is not seen by a new thread: its own copy starts at 0
// error: main sets x = 5, the worker reads its own x == 0 and the assertion fails
#include <pthread.h>
#include <assert.h>

_Thread_local int x;

void *worker(void *arg) {
  assert(x == 5);
  return 0;
}

int main(void) {
  pthread_t t;
  x = 5;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
