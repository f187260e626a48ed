// expect: unsafe
// args: --no-races
// joining t1 does not wait for t2
// interleaving: main creates t1, t2; t1 runs and ends; main joins t1 and checks y == 0
#include <pthread.h>
extern void reach_error(void);

int x = 0, y = 0;

void *set_x(void *arg) { x = 1; return 0; }
void *set_y(void *arg) { y = 1; return 0; }

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, set_x, 0);
  pthread_create(&t2, 0, set_y, 0);
  pthread_join(t1, 0);
  if (x != 1 || y != 1) {
    reach_error();
  }
  pthread_join(t2, 0);
  return 0;
}
