// expect: safe
// args: --no-races
// deadlock-free handshake with busy-waiting on flags: t1 publishes data then flag, waits for turn
// invariant: data == 42 before flag == 1 is visible; ack == 7 before turn == 1 is visible
#include <pthread.h>
#include <assert.h>

_Atomic int data = 0, flag = 0;
_Atomic int ack = 0, turn = 0;

void *sender(void *arg) {
  data = 42;
  flag = 1;
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
