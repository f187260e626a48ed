// expect: unsafe
// args: --no-races
// a thread writes pt.x then pt.y; main reads pt.x first, then pt.y, and can see the write half done
// interleaving: writer pt.x = 1; main reads pt.x == 1, pt.y == 0; error
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
  if (pt.x == 1 && pt.y == 0) {
    reach_error();
  }
  pthread_join(t, 0);
  return 0;
}
