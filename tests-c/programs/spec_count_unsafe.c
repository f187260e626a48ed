// expect: unsafe
// args: --engine magic --spec spec_three_sends.spec
// The worker's loop runs three times (i <= 2): with main's, four calls of send(), one more than spec_three_sends.spec allows.
#include <pthread.h>

void send(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  for (int i = 0; i <= 2; i++) {
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
