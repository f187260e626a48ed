// expect: safe
// args: --engine magic --no-races --spec spec_ssl_handshake.spec
// After the seed's OpenSSL examples: a client and a server, each a state machine over a local state, exchange messages through a one-place channel (message codes, benign races so --no-races); MAGIC proves the handshake is initiated by the client and runs hello, server hello, finished (predicates on the states).
#include <pthread.h>

void client_hello(void);
void server_hello(void);
void finished(void);

int chan = 0; /* 0 empty, 1 client hello, 2 server hello, 3 finished */

void *server(void *arg) {
  int state = 0;
  while (state != 2) {
    switch (state) {
    case 0:
      if (chan == 1) {
        server_hello();
        chan = 2;
        state = 1;
      }
      break;
    case 1:
      if (chan == 3)
        state = 2;
      break;
    }
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, server, 0);
  int state = 0;
  while (state != 2) {
    if (state == 0) {
      client_hello();
      chan = 1;
      state = 1;
    } else if (state == 1 && chan == 2) {
      finished();
      chan = 3;
      state = 2;
    }
  }
  pthread_join(t, 0);
  return 0;
}
