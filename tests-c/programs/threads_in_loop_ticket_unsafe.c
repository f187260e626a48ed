// expect: unsafe
// args: --no-races
// the ticket is read and the counter increased in two critical sections: two workers can draw the same
// ticket and both enter the critical section
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int next_ticket = 0;
int serving = 0;
int inside = 0;

void *worker(void *arg) {
  int my;
  pthread_mutex_lock(&m);
  my = next_ticket;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  next_ticket = next_ticket + 1;
  pthread_mutex_unlock(&m);
  while (1) {
    pthread_mutex_lock(&m);
    if (serving == my) {
      pthread_mutex_unlock(&m);
      break;
    }
    pthread_mutex_unlock(&m);
  }
  inside = inside + 1;
  if (inside != 1) {
    reach_error();
  }
  inside = inside - 1;
  pthread_mutex_lock(&m);
  serving = serving + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
