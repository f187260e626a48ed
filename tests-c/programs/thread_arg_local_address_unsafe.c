// expect: unsafe
// args: --no-races
// &a of a local of main is the thread argument; main changes a after creating the thread
// interleaving: main creates t, main sets a = 2, t reads *p == 2; error
#include <pthread.h>
extern void reach_error(void);

void *reader(void *arg) {
  int *p = (int *)arg;
  if (*p == 2) {
    reach_error();
  }
  return 0;
}

int main(void) {
  int a = 1;
  pthread_t t;
  pthread_create(&t, 0, reader, &a);
  a = 2;
  pthread_join(t, 0);
  return 0;
}
