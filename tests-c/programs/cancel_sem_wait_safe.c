// expect: safe
// args: --no-races
// A worker waits on a semaphore nobody posts; sem_wait is a cancellation
// point, so main's pthread_cancel ends the wait: the join returns and the
// worker's result is PTHREAD_CANCELED.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t s;

void *worker(void *arg) {
  sem_wait(&s);
  return 0;
}

int main(void) {
  pthread_t t;
  void *res = 0;
  sem_init(&s, 0, 0);
  pthread_create(&t, 0, worker, 0);
  pthread_cancel(t);
  pthread_join(t, &res);
  assert(res == PTHREAD_CANCELED);
  return 0;
}
