// expect: unsafe
// args: --no-races
// a global pointer to a global, written through by a thread; main observes the write
// interleaving: main creates t; t runs *p = 1 (x becomes 1); main reads x == 1; error
#include <pthread.h>
extern void reach_error(void);

int x = 0;
int *p = &x;

void *thr(void *arg) {
  *p = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, thr, 0);
  if (x == 1) {
    reach_error();
  }
  pthread_join(t, 0);
  return 0;
}
