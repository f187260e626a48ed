// expect: unsafe
// args: --no-races
// The worker may not have run when main tests the flag: the error is
// reached before the floating-point code (abstracted) that follows it.
#include <pthread.h>

extern void reach_error(void);

int done;

void *worker(void *arg) {
  done = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (done == 0)
    reach_error();
  pthread_join(t, 0);
  float scale = 0.5f;
  scale = scale * done;
  return (int)scale;
}
