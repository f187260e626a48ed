// expect: unsafe
// args: --no-races
// like producer_consumer_loop_safe.c, but the consumer takes from an empty buffer (count >= 0 instead of > 0)
// interleaving: the consumer runs once before the producer: count becomes -1 and the assertion under the lock fails
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0, produced = 0, consumed = 0;

void *producer(void *arg) {
  while (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&m);
    if (count < 4) {
      count = count + 1;
      produced = produced + 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  while (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&m);
    if (count >= 0) {
      count = count - 1;
      consumed = consumed + 1;
    }
    __VERIFIER_assert(count >= 0 && count <= 4);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  __VERIFIER_assert(produced - consumed == count);
  return 0;
}
