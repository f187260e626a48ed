// expect: unsafe
// args: --no-races
// a lost wake-up: the producer sets `ready` and signals without the mutex,
// so it can do both between the consumer's test of `ready` and its wait;
// the signal finds no waiter and the consumer waits forever (spurious
// wake-ups are not counted on)
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

void *producer(void *arg) {
  ready = 1;
  pthread_cond_signal(&cv);
  return 0;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, producer, 0);
  pthread_mutex_lock(&m);
  if (!ready)
    pthread_cond_wait(&cv, &m);
  pthread_mutex_unlock(&m);
  pthread_join(p, 0);
  return 0;
}
