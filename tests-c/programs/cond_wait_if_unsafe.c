// expect: unsafe
// args: --no-races
// cond_wait guarded by if instead of while: a woken consumer does not re-check the predicate
// interleaving (no spurious wake-up needed): c1 locks, items == 0, waits; c2 locks, items == 0,
//   waits; producer locks, items = 1, broadcast, unlocks; c1 wakes, takes the item (items = 0),
//   unlocks; c2 wakes with items == 0 and asserts items > 0; error
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int items = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  items = 1;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&m);
  return 0;
}

void *consumer(void *arg) {
  pthread_mutex_lock(&m);
  if (items == 0) {
    pthread_cond_wait(&cv, &m);
  }
  assert(items > 0);
  items = items - 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p, c1, c2;
  pthread_create(&c1, 0, consumer, 0);
  pthread_create(&c2, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(c1, 0);
  pthread_join(c2, 0);
  pthread_join(p, 0);
  return 0;
}
