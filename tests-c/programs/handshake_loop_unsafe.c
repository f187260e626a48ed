// expect: unsafe
// args: --no-races
// like handshake_loop_safe.c, but ping updates x again after handing the turn over
// interleaving: ping hands the turn over; its late x = x + 2 races with pong's x = x + 1 (pong's store lost), x is odd when the turn comes back and ping's check fails
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }

int turn = 0;
int x = 0;

void *ping(void *arg) {
  while (__VERIFIER_nondet_int()) {
    while (turn != 0) {
    }
    __VERIFIER_assert(x % 2 == 0);
    x = x + 1;
    turn = 1;
    x = x + 2;
  }
  return 0;
}

void *pong(void *arg) {
  while (__VERIFIER_nondet_int()) {
    while (turn != 1) {
    }
    __VERIFIER_assert(x % 2 == 1);
    x = x + 1;
    turn = 0;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, ping, 0);
  pthread_create(&b, 0, pong, 0);
  return 0;
}
