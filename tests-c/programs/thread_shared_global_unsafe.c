// expect: unsafe
// args: --no-races
// thread_local_vars_safe.c with a global instead of the local: the two instances share it
// interleaving: t1 shared = 0; t2 shared = 0; t1 shared++ (1); t2 shared++ (2); t1 sees 2; error
#include <pthread.h>
extern void reach_error(void);

int shared;

void *worker(void *arg) {
  shared = 0;
  shared++;
  if (shared != 1) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
