// expect: safe
// args: --no-races
// workers started in a loop of any length wait, in a while loop, until
// main has announced that it is ready; main broadcasts after the loop
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  while (!ready) {
    pthread_cond_wait(&c, &m);
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, worker, 0);
  }
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
