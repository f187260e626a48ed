// expect: safe
// args: --no-races
// workers started in a loop of any length share a semaphore of one permit,
// each taking it and giving it back; main joins the last one: no deadlock
#include <pthread.h>
#include <semaphore.h>
extern int __VERIFIER_nondet_int(void);

sem_t s;
int inside = 0;

void *worker(void *arg) {
  sem_wait(&s);
  inside = inside + 1;
  inside = inside - 1;
  sem_post(&s);
  return 0;
}

int main(void) {
  pthread_t t;
  sem_init(&s, 0, 1);
  pthread_create(&t, 0, worker, 0);
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, worker, 0);
  }
  pthread_join(t, 0);
  return 0;
}
