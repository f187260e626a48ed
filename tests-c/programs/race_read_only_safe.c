// expect: safe
// args: --races
// read-read sharing: main sets a global before creating the threads, which only read it
// invariant: after the creates nobody writes config; two reads never race
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

int config;
int r1, r2;

void *reader1(void *arg) {
  r1 = config + 1;
  return 0;
}

void *reader2(void *arg) {
  r2 = config * 2;
  return 0;
}

int main(void) {
  config = __VERIFIER_nondet_int();
  pthread_t t1, t2;
  pthread_create(&t1, 0, reader1, 0);
  pthread_create(&t2, 0, reader2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
