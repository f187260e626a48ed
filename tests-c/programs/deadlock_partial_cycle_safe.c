// expect: safe
// two workers take two locks in the same order while main goes on
// serving requests and never joins them: whoever holds a waits for b only
// while the other holds neither, so neither waits forever (no partial
// deadlock)
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int shared_a, shared_b;
extern int __VERIFIER_nondet_int(void);

void *forward(void *arg) {
  pthread_mutex_lock(&a);
  pthread_mutex_lock(&b);
  shared_a++;
  shared_b--;
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return 0;
}

void *backward(void *arg) {
  pthread_mutex_lock(&a);
  pthread_mutex_lock(&b);
  shared_b++;
  shared_a--;
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, forward, 0);
  pthread_create(&t2, 0, backward, 0);
  int served = 0;
  while (__VERIFIER_nondet_int()) {
    served++;
  }
  return served > 0;
}
