// expect: safe
// args: --no-races
// two workers each run a nondeterministic number of lock-protected updates of a shared counter and of their own tally; after joining, counter == tally_a + tally_b
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;
int tally_a = 0, tally_b = 0;

void *worker_a(void *arg) {
  while (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&m);
    counter = counter + 1;
    tally_a = tally_a + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *worker_b(void *arg) {
  while (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&m);
    counter = counter + 1;
    tally_b = tally_b + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker_a, 0);
  pthread_create(&b, 0, worker_b, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __VERIFIER_assert(counter == tally_a + tally_b);
  return 0;
}
