// expect: safe
// args: --no-races
// __VERIFIER_atomic_begin/end: no other thread steps inside the section
// invariant: outside atomic sections x == y; the checker reads both inside its own section
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int x = 0, y = 0;

void *updater(void *arg) {
  __VERIFIER_atomic_begin();
  x = x + 1;
  y = y + 1;
  __VERIFIER_atomic_end();
  return 0;
}

void *checker(void *arg) {
  __VERIFIER_atomic_begin();
  int a = x;
  int b = y;
  __VERIFIER_atomic_end();
  if (a != b) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, updater, 0);
  pthread_create(&t2, 0, updater, 0);
  pthread_create(&t3, 0, checker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}
