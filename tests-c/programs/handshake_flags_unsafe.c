// expect: unsafe
// args: --no-races
// the handshake of handshake_flags_safe.c with the sender raising flag before writing data
// interleaving: sender flag = 1; receiver leaves its loop and reads data == 0; error
#include <pthread.h>
#include <assert.h>

int data = 0, flag = 0;
int ack = 0, turn = 0;

void *sender(void *arg) {
  flag = 1;
  data = 42;
  while (turn != 1) {
  }
  assert(ack == 7);
  return 0;
}

void *receiver(void *arg) {
  while (flag != 1) {
  }
  assert(data == 42);
  ack = 7;
  turn = 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, sender, 0);
  pthread_create(&t2, 0, receiver, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
