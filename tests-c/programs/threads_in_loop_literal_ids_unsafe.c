// expect: unsafe
// args: --no-races
// Workers started in a loop store literals that equal the ids the lowering
// gives the modelled instances (2, 3 and 4). They are literals, not thread
// ids. Another worker can store 3 between the store of 4 and its test.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "threads_in_loop_literal_ids_unsafe.c", 9, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
#include <pthread.h>

_Atomic int s = 2;

void *worker(void *arg) {
  s = 4;
  if (s != 4) reach_error();
  s = 3;
  return 0;
}

int main() {
  pthread_t t;
  while (__VERIFIER_nondet_int()) pthread_create(&t, 0, worker, 0);
  return 0;
}
