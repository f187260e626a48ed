// expect: safe
// args: --no-races
// A lock made of an atomic test-and-set (SV-COMP's `__VERIFIER_atomic_acquire`
// and `__VERIFIER_atomic_release`): two threads each add to a shared total
// and to their own tally a nondeterministic number of times, under the lock,
// with the value read into a local first. The reduction recognises the flag
// lock and makes each critical section one step.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "flag_lock_counter_safe.c", 9, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) { if (!cond) abort(); }
#include <pthread.h>

int m = 0;
int total = 0, a = 0, b = 0;

void __VERIFIER_atomic_acquire() { assume_abort_if_not(m == 0); m = 1; }
void __VERIFIER_atomic_release() { assume_abort_if_not(m == 1); m = 0; }

void *worker_a(void *arg) {
  while (__VERIFIER_nondet_int()) {
    __VERIFIER_atomic_acquire();
    int t = total;
    total = t + 1;
    a = a + 1;
    __VERIFIER_atomic_release();
  }
  return 0;
}

void *worker_b(void *arg) {
  while (__VERIFIER_nondet_int()) {
    __VERIFIER_atomic_acquire();
    int t = total;
    total = t + 1;
    b = b + 1;
    __VERIFIER_atomic_release();
  }
  return 0;
}

int main() {
  pthread_t x, y;
  pthread_create(&x, 0, worker_a, 0);
  pthread_create(&y, 0, worker_b, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  if (total != a + b) reach_error();
  return 0;
}
