// expect: safe
// args: --no-races
// calloc of an input count (any length): two workers each set their own element, main checks both after the joins
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
void __VERIFIER_assert(int c) { if (!c) { ERROR: reach_error(); } }

int *flags;
int n;

void *first(void *arg) {
  flags[0] = 1;
  return 0;
}

void *last(void *arg) {
  flags[n - 1] = 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  n = __VERIFIER_nondet_int();
  if (n < 2) return 0;
  flags = calloc(n, sizeof(int));
  pthread_create(&t1, 0, first, 0);
  pthread_create(&t2, 0, last, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  __VERIFIER_assert(flags[0] == 1 && flags[n - 1] == 2);
  return 0;
}
