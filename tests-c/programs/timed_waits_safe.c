// expect: safe
// args: --no-races
// Waits with a time limit: the limit may or may not pass. A timed lock
// either acquires the mutex (0) or gives up with ETIMEDOUT without it; a
// timed wait on a condition variable returns with the mutex held, timed out
// or not, so a consumer that stops at a time-out checks its predicate
// again before trusting it.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;
int inside = 0;
sem_t s;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

void *producer(void *arg) {
  struct timespec limit = {1, 0};
  int r = pthread_mutex_timedlock(&m, &limit);
  if (r == 0) {
    inside++;
    assert(inside == 1);
    inside--;
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
  } else {
    assert(r == ETIMEDOUT);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  struct timespec limit = {1, 0};
  int got = 0;
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&m);
  inside++;
  assert(inside == 1);
  inside--;
  while (!ready) {
    if (pthread_cond_timedwait(&c, &m, &limit) == ETIMEDOUT)
      break;
  }
  got = ready;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  sem_init(&s, 0, 0);
  assert(sem_timedwait(&s, &limit) == -1);
  if (pthread_rwlock_timedwrlock(&rw, &limit) == 0)
    pthread_rwlock_unlock(&rw);
  assert(pthread_rwlock_timedrdlock(&rw, &limit) == 0);
  pthread_rwlock_unlock(&rw);
  if (got)
    assert(ready == 1);
  return 0;
}
