// expect: safe
// args: --no-races
// pthread_exit (called from a function the thread calls) ends the thread; pthread_join then returns
// the statements after pthread_exit never run
#include <pthread.h>
#include <assert.h>

int x = 0;

void finish(void) {
  pthread_exit(0);
}

void *worker(void *arg) {
  x = 1;
  finish();
  x = 2;          // unreachable
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(x == 1);
  return 0;
}
