// expect: safe
// args: --no-races
// a worker computes x*y, x/y, x%y, 1<<s and an unsigned product of nondets in small ranges; main checks the identities C guarantees
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

int x, y, s;
int prod, quot, rem, shl;
unsigned int ua, ub, uprod;

void *worker(void *arg) {
  prod = x * y;
  quot = x / y;
  rem = x % y;
  shl = 1 << s;
  uprod = ua * ub;
  return 0;
}

int main(void) {
  pthread_t t;
  x = __VERIFIER_nondet_int();
  y = __VERIFIER_nondet_int();
  s = __VERIFIER_nondet_int();
  unsigned int u = __VERIFIER_nondet_uint();
  __VERIFIER_assume(u >= 65535 && u <= 65537);
  ua = u;
  ub = u;
  __VERIFIER_assume(x >= -4 && x <= 4 && y >= -4 && y <= 4 && y != 0);
  __VERIFIER_assume(s >= 29 && s <= 30);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (quot * y + rem != x) reach_error();
  if (rem != 0 && (rem < 0) != (x < 0)) reach_error();
  if (prod != y * x) reach_error();
  if (shl <= 0) reach_error();
  if (uprod != ua * ub) reach_error();
  if (ua == 65536 && uprod != 0) reach_error();
  if (ua == 65537 && uprod != 131073) reach_error();
  return 0;
}
