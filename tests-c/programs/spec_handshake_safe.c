// expect: safe
// args: --engine magic --no-races --spec spec_alternate.spec
// A producer and a consumer hand three messages over through a flag (benign races on the flag, so --no-races): send() and recv() alternate as spec_alternate.spec says; MAGIC proves it with the flag as a shared component.
#include <pthread.h>

void send(void);
void recv(void);

int full = 0;

void *consumer(void *arg) {
  for (int i = 0; i < 3; i++) {
    while (full == 0) {
    }
    recv();
    full = 0;
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, consumer, 0);
  for (int i = 0; i < 3; i++) {
    while (full == 1) {
    }
    send();
    full = 1;
  }
  pthread_join(t, 0);
  return 0;
}
