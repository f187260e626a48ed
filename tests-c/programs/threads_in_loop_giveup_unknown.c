// expect: unknown
// args: --no-races
// true verdict: unsafe
// Workers created in a loop (the counter abstraction applies) after an
// asm statement the checker cannot model: its give-up stays an error of
// the counter system, so the answer is unknown, not a proof.
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

void *worker(void *arg) { return 0; }

int main(void) {
  int x = 0;
  __asm__("movl $1, %0" : "=r"(x));
  int n = __VERIFIER_nondet_int();
  pthread_t t;
  for (int i = 0; i < n; i++) {
    pthread_create(&t, 0, worker, 0);
  }
  if (x == 1) {
    reach_error();
  }
  return 0;
}
