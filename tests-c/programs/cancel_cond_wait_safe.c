// expect: safe
// args: --no-races
// A worker waits on a condition variable that nobody signals, inside a
// pthread_cleanup_push region that releases the mutex; main cancels it.
// pthread_cond_wait is a cancellation point: the worker re-acquires the
// mutex, its clean-up handler releases it, and it ends with
// PTHREAD_CANCELED. So main can take the mutex, the handler ran, and the
// code after the wait never ran.
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
    assert(passed == 0);
  }
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
