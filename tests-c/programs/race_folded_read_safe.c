// expect: safe
// args: --races
// race_folded_read_unsafe.c with operands C does not evaluate: `1 || x`,
// `0 && x`, `pick > 5 ? x : 1` with pick at most 3, and `sizeof x`; no read of
// x happens while the worker writes it, and main reads it after the join.
#include <pthread.h>

int x;
int y;

void *worker(void *arg) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  int pick = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= pick && pick <= 3);
  pthread_create(&t, 0, worker, 0);
  if (pick == 0) {
    y = 1 || x;
  } else if (pick == 1) {
    y = 0 && x;
  } else if (pick == 2) {
    y = pick > 5 ? x : 1;
  } else {
    y = sizeof x;
  }
  pthread_join(t, 0);
  y = x * 0;
  return 0;
}
