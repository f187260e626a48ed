// expect: safe
// args: --no-races
// a thread writes pt.x then pt.y; main reads pt.y first, then pt.x
// invariant (sequential consistency): once pt.y == 1 is visible, pt.x == 1 is too
#include <pthread.h>
extern void reach_error(void);

struct point { int x; int y; } pt;

void *writer(void *arg) {
  pt.x = 1;
  pt.y = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  if (pt.y == 1 && pt.x == 0) {   // && reads pt.y before pt.x
    reach_error();
  }
  pthread_join(t, 0);
  return 0;
}
