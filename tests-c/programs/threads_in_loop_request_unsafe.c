// expect: unsafe
// args: --no-races
// a server starts a worker per request in a while (nondet) loop but counts the request after starting it
// interleaving: main creates worker#1, which serves (served == 1) before main sets requests = 1
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
    pthread_create(&t, 0, handle, 0);
    pthread_mutex_lock(&m);
    requests = requests + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
