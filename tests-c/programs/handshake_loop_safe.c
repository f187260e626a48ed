// expect: safe
// args: --no-races
// two threads alternate through a turn flag (busy waiting, no mutex) a nondeterministic number of rounds; each round updates x and checks it
// invariant: turn == 0 -> x is even, turn == 1 -> x is odd; only the thread whose turn it is touches x
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }

_Atomic int turn = 0;
_Atomic int x = 0;

void *ping(void *arg) {
  while (__VERIFIER_nondet_int()) {
    while (turn != 0) {
    }
    __VERIFIER_assert(x % 2 == 0);
    x = x + 1;
    turn = 1;
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
