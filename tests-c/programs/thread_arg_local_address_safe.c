// expect: safe
// args: --no-races
// &a of a local of main is the thread argument; main reads a only after joining the writer
#include <pthread.h>
extern void reach_error(void);

void *doubler(void *arg) {
  int *p = (int *)arg;
  *p = *p * 2;
  return 0;
}

int main(void) {
  int a = 21;
  pthread_t t;
  pthread_create(&t, 0, doubler, &a);
  pthread_join(t, 0);
  if (a != 42) {
    reach_error();
  }
  return 0;
}
