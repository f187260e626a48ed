// expect: unsafe
// args: --no-races
// the result received by pthread_join is the value the thread returned, which depends on a race with main
// error: main sets flag = 1 only after creating the worker; the worker returns the flag it read, 0, and main's assertion fails
#include <pthread.h>
#include <assert.h>

int flag = 0;

void *worker(void *arg) {
  return (void *)(long)flag;
}

int main(void) {
  pthread_t t;
  void *r;
  pthread_create(&t, 0, worker, 0);
  flag = 1;
  pthread_join(t, &r);
  assert((long)r == 1);
  return 0;
}
