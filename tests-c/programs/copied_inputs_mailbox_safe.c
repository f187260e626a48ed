// expect: safe
// args: --no-races --no-deadlocks
// a producer copies unconstrained inputs into a shared ring of mailboxes and keeps its own copies; a consumer takes them in order and checks each against the producer's copy, and that a value tested as small is still small when read again (the values are never enumerated: copies share them)
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

#define N 2
int ring[N];
int kept[N];
int small[N];
int head, tail, count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
  for (int i = 0; i < 3; i++) {
    int v = __VERIFIER_nondet_int();
    pthread_mutex_lock(&m);
    if (count < N) {
      ring[tail] = v;
      kept[tail] = v;
      small[tail] = v >= 0 && v < 100;
      tail = (tail + 1) % N;
      count++;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    if (count > 0) {
      int v = ring[head];
      assert(v == kept[head]);
      if (small[head]) {
        assert(v < 100);
      }
      head = (head + 1) % N;
      count--;
    }
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
  return 0;
}
