// expect: unsafe
// args: --no-races
// found by the reduction differential (seed 76): a value computed from an input in the same step must not take the input's value before the havoc
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int g0 = 1;
int g1 = 0;
pthread_mutex_t m0 = PTHREAD_MUTEX_INITIALIZER;

void *worker0(void *arg) {
  int l0 = 1, l1 = 1, i0 = 0, i1 = 0, n0 = 0;
  g1 += 1;
  g0 = g1 + 1;
  return 0;
}

void *worker1(void *arg) {
  int l0 = 0, l1 = 1, i0 = 0, i1 = 0, n0 = 0;
  pthread_mutex_lock(&m0);
  l1 = l1 - 1;
  l1 = g0;
  pthread_mutex_unlock(&m0);
  return 0;
}

int main(void) {
  pthread_t t0, t1, t2;
  int l0 = 0, l1 = 0, i0 = 0, i1 = 0, n0 = 0;
  if (!(g0 != 5 || g1 == 3)) reach_error();
  pthread_create(&t0, 0, worker1, 0);
  pthread_create(&t1, 0, worker0, 0);
  pthread_join(t1, 0);
  l1 = __VERIFIER_nondet_bool();
  pthread_create(&t2, 0, worker1, 0);
  g1 = 2;
  pthread_join(t0, 0);
  pthread_join(t2, 0);
  if (!(l1 == l0)) reach_error();
  if (!(g0 >= -2 || g1 <= g0)) reach_error();
  return 0;
}
