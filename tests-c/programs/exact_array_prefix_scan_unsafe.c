// expect: unsafe
// Two workers measure the common prefix of two heap arrays of input
// lengths filled with inputs, one comparing the first with the second,
// the other the second with the first; main checks that they agree. The
// second worker stops one element early when the arrays are equal up to
// the shorter length: a bug the explicit search of the exact array model
// finds with arrays of one element.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

void require(int ok) {
  if (!ok)
    abort();
}

int *inputs(int len) {
  require(len >= 0 && len <= 1000000);
  int *v = (int *)malloc(sizeof(int) * (size_t)len);
  for (int j = 0; j < len; j++)
    v[j] = __VERIFIER_nondet_int();
  return v;
}

int *p, *q;
int np, nq, ip, iq;

void *scan_pq(void *arg) {
  while (ip < np && ip < nq && p[ip] == q[ip])
    ip++;
  return 0;
}

void *scan_qp(void *arg) {
  while (iq + 1 < nq && iq < np && q[iq] == p[iq])
    iq++;
  return 0;
}

int main(void) {
  pthread_t a, b;
  np = __VERIFIER_nondet_int();
  nq = __VERIFIER_nondet_int();
  p = inputs(np);
  q = inputs(nq);
  pthread_create(&a, 0, scan_pq, 0);
  pthread_create(&b, 0, scan_qp, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (ip != iq)
    reach_error();
  return 0;
}
