// expect: safe
// args: --no-races
// a server starts a worker per request in a while (nondet) loop; each worker opens and closes the session under a mutex
// invariant: open == 1 exactly while a worker holds m inside its critical section, for any number of workers
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int open = 0;

void *handle(void *arg) {
  pthread_mutex_lock(&m);
  open = 1;
  if (open != 1) {
    reach_error();
  }
  open = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, handle, 0);
  }
  return 0;
}
