// expect: unsafe
// the worker takes the two locks in the usual order in every round but
// the last one, whose number is an input: then it takes them reversed,
// and can deadlock with main, which takes them in the usual order in a
// loop of its own
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int rounds;
int work;

void *worker(void *arg) {
  for (int i = 0; i < rounds; i++) {
    if (i < rounds - 1) {
      pthread_mutex_lock(&a);
      pthread_mutex_lock(&b);
    } else {
      pthread_mutex_lock(&b);
      pthread_mutex_lock(&a);
    }
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
