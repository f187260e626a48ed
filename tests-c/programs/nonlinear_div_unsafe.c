// expect: unsafe
// args: --no-races
// division and remainder of two nondets round toward zero: -7 / 2 == -3 and -7 % 2 == -1 are reachable, so the check fails (after a bitwise identity that always holds)
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a, b, q, r, m;

void *worker(void *arg) {
  q = a / b;
  r = a % b;
  m = (a & b) + (a | b) - (a ^ b);
  return 0;
}

int main(void) {
  pthread_t t;
  a = __VERIFIER_nondet_int();
  b = __VERIFIER_nondet_int();
  __VERIFIER_assume(a >= -9 && a <= 9 && b >= 1 && b <= 3);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (m != 2 * (a & b)) return 0;
  if (q == -3 && r == -1) reach_error();
  return 0;
}
