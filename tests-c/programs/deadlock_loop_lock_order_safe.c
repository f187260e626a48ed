// expect: safe
// args: --no-races
// workers started in a loop of any length take two mutexes, always in the
// same order: no deadlock for any number of workers (counter abstraction)
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int shared = 0;

void *worker(void *arg) {
  int left = (int)(long)arg;
  if (left) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
  } else {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
  }
  shared = shared + 1;
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return 0;
}

int main(void) {
  pthread_t t;
  int i = 0;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, worker, (void *)(long)(i < 1));
    i = 1;
  }
  return 0;
}
