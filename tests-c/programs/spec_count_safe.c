// expect: safe
// args: --engine magic --spec spec_three_sends.spec
// The worker sends twice and main once: three calls of send(), as many as spec_three_sends.spec allows. MAGIC needs predicates on the loop counter (i < 2) to prove it.
#include <pthread.h>

void send(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    send();
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  send();
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
