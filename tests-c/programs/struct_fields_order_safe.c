// expect: safe
// args: --no-races
// a thread writes pt.x then pt.y; main reads pt.y first, then pt.x (each access atomic, so there is no data race)
// invariant (sequential consistency): once pt.y == 1 is visible, pt.x == 1 is too
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

struct point { int x; int y; } pt;

void *writer(void *arg) {
  __VERIFIER_atomic_begin();
  pt.x = 1;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  pt.y = 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  __VERIFIER_atomic_begin();
  int y = pt.y;                    // pt.y is read before pt.x
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  int x = pt.x;
  __VERIFIER_atomic_end();
  if (y == 1 && x == 0) {
    reach_error();
  }
  pthread_join(t, 0);
  return 0;
}
