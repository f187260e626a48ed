// expect: unsafe
// args: --no-races
// Timed waits as in timed_waits_safe.c; main assumes the producer's
// update is there after its wait, but the wait may time out first (and the
// producer's timed lock may time out too).
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
  assert(got == 1);
  return 0;
}
