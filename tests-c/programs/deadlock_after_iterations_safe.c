// expect: safe
// the worker takes the two locks in the usual order in every round, as
// many rounds as its input says, and main takes them in the same order in
// a loop of its own: no deadlock after any number of rounds
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int rounds;
int work;

void *worker(void *arg) {
  for (int i = 0; i < rounds; i++) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    work++;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  rounds = __VERIFIER_nondet_int();
  if (rounds < 0)
    return 0;
  pthread_create(&t, 0, worker, 0);
  while (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    work--;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
  }
  pthread_join(t, 0);
  return 0;
}
