// expect: unsafe
// args: --no-races
// a thread reads a nondet input; the bug needs input == 42 and the thread to run before main checks
// interleaving: main creates t; t reads v = 42, sets seen = 42; main reads seen == 42; error
#include <pthread.h>
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

unsigned int seen = 0;

void *reader(void *arg) {
  unsigned int v = __VERIFIER_nondet_uint();
  if (v != 0u) {
    seen = v;
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  if (seen == 42u) {
    reach_error();
  }
  pthread_join(t, 0);
  return 0;
}
