// expect: unsafe
// args: --no-races
// Cancellation as in cancel_cond_wait_safe.c; the assertion expects the
// clean-up handler not to have run, but a cancelled thread runs it.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;
int cleaned = 0;
int passed = 0;

void release(void *arg) {
  cleaned = 1;
  pthread_mutex_unlock(&m);
}

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_cleanup_push(release, 0);
  while (!ready)
    pthread_cond_wait(&c, &m);
  passed = 1;
  pthread_cleanup_pop(1);
  return 0;
}

int main(void) {
  pthread_t t;
  void *res = 0;
  pthread_create(&t, 0, worker, 0);
  pthread_cancel(t);
  pthread_join(t, &res);
  if (res == PTHREAD_CANCELED) {
    assert(cleaned == 1);
    assert(cleaned == 0);
  }
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
