// expect: unsafe
// args: --no-races
// As cancel_sem_wait_safe.c: the cancelled wait ends the worker, and the
// assertion that it was not cancelled fails once main's join returns.
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
  assert(res != PTHREAD_CANCELED);
  return 0;
}
