// expect: unsafe
// args: --no-races
// pthread_exit only on one branch of a nondet choice: on the other the thread goes on to x = 2
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int x = 0;

void *worker(void *arg) {
  x = 1;
  if (__VERIFIER_nondet_int()) {
    pthread_exit(0);
  }
  x = 2;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (x == 2) {
    reach_error();
  }
  return 0;
}
