// expect: safe
// the consumer waits for the producer's signal in a while loop; the
// producer always announces (an item or that there is none), so the
// consumer never waits on a condition variable nobody can signal any more
// (no partial deadlock)
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t ready_cv = PTHREAD_COND_INITIALIZER;
int ready;
extern int __VERIFIER_nondet_int(void);

void *producer(void *arg) {
  int made = __VERIFIER_nondet_int() > 0;
  pthread_mutex_lock(&m);
  ready = made ? 1 : 2;
  pthread_cond_signal(&ready_cv);
  pthread_mutex_unlock(&m);
  return 0;
}

void *consumer(void *arg) {
  pthread_mutex_lock(&m);
  while (!ready) {
    pthread_cond_wait(&ready_cv, &m);
  }
  ready = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  while (__VERIFIER_nondet_int()) {
  }
  return 0;
}
