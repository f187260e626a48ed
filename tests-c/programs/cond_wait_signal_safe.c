// expect: safe
// args: --no-races
// pthread_cond_wait in a while loop re-checking the predicate; correct even with spurious wake-ups
// invariant: ready == 1 implies data == 42 (both set together while m is held)
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready = 0;
int data = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  data = 42;
  ready = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m);
  return 0;
}

void *consumer(void *arg) {
  pthread_mutex_lock(&m);
  while (!ready) {
    pthread_cond_wait(&cv, &m);
  }
  assert(data == 42);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
