// expect: unsafe
// args: --engine magic --no-races --spec spec_alternate.spec
// The consumer clears the flag before its recv(): the producer's next send() can come first, two sends in a row, which spec_alternate.spec forbids.
#include <pthread.h>

void send(void);
void recv(void);

int full = 0;

void *consumer(void *arg) {
  for (int i = 0; i < 3; i++) {
    while (full == 0) {
    }
    full = 0;
    recv();
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
