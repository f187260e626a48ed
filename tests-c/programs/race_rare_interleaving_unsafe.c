// expect: unsafe
// args: --races
// a race only under one order: the first thread writes x only if a nondet flag is set and it saw y == 3, which the second thread reaches after three locked increments
// race: counter does its three increments, then checker locks, reads y == 3 and is about to store x while counter is about to load x
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0, y = 0;
int seen;

void *checker(void *arg) {
  int go = __VERIFIER_nondet_int();
  pthread_mutex_lock(&m);
  int now = y;
  pthread_mutex_unlock(&m);
  if (go && now == 3)
    x = 1;
  return 0;
}

void *counter(void *arg) {
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    y = y + 1;
    pthread_mutex_unlock(&m);
  }
  seen = x;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, checker, 0);
  pthread_create(&t2, 0, counter, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
