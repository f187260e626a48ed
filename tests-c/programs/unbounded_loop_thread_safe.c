// expect: safe
// args: --no-races
// a thread loops forever, c = (c + 1) % 4; another thread checks c is in [0, 3]
// invariant: c is only written by the looping thread and each written value is in [0, 3]
#include <pthread.h>
extern void reach_error(void);

_Atomic int c = 0;

void *spinner(void *arg) {
  while (1) {
    c = (c + 1) % 4;
  }
  return 0;
}

void *checker(void *arg) {
  int v = c;
  if (v < 0 || v > 3) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, spinner, 0);
  pthread_create(&t2, 0, checker, 0);
  pthread_join(t2, 0);
  return 0;
}
