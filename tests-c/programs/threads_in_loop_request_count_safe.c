// expect: safe
// args: --no-races
// a server counts each request, then starts a worker for it, in a while (nondet) loop: no worker serves an uncounted request
// invariant: served + (workers not yet served) == requests, so served <= requests
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int requests = 0;
int served = 0;

void *handle(void *arg) {
  pthread_mutex_lock(&m);
  served = served + 1;
  if (served > requests) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&m);
    requests = requests + 1;
    pthread_mutex_unlock(&m);
    pthread_create(&t, 0, handle, 0);
  }
  return 0;
}
