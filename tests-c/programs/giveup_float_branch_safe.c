// expect: safe
// args: --no-races
// Floating-point values are abstracted, and only a branch that no
// execution takes uses them.
#include <pthread.h>
#include <stdio.h>

extern void reach_error(void);

int done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  done = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (done != 1) {
    double ratio = done / 3.0;
    printf("unexpected: %f\n", ratio);
    reach_error();
  }
  return 0;
}
