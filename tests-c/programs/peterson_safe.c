// expect: safe
// args: --no-races
// Peterson's mutual exclusion for two threads (SV-COMP style, reach_error defined via __assert_fail)
// invariant: both threads are never in the critical section together, so x keeps the value just written
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "peterson_safe.c", 5, "reach_error"); }
#include <pthread.h>

_Atomic int flag1 = 0, flag2 = 0;
_Atomic int turn;
_Atomic int x;

void *thr1(void *_) {
  flag1 = 1;
  turn = 1;
  while (flag2 == 1 && turn == 1) {
  }
  x = 0;                          // critical section
  if (!(x <= 0)) reach_error();
  flag1 = 0;
  return 0;
}

void *thr2(void *_) {
  flag2 = 1;
  turn = 0;
  while (flag1 == 1 && turn == 0) {
  }
  x = 1;                          // critical section
  if (!(x >= 1)) reach_error();
  flag2 = 0;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
