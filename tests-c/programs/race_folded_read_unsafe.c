// expect: unsafe
// args: --races
// Reads whose values do not matter still read: `x * 0`, `x - x`, a condition
// `x > 0 || 1` that is always true and a discarded `(void)x` all read x while
// the worker writes it.
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
  pthread_create(&t, 0, worker, 0);
  if (pick == 0) {
    y = x * 0;
  } else if (pick == 1) {
    y = x - x;
  } else if (pick == 2) {
    if (x > 0 || 1)
      y = 2;
  } else {
    (void)x;
  }
  pthread_join(t, 0);
  return 0;
}
