// expect: safe
// args: --races
// both threads read and write a plain int only inside __VERIFIER_atomic_begin/end: the accesses are atomic, so no race
// invariant: every access of total by the threads is inside an atomic section; main reads it after both joins
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int total = 0;
int result;

void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  int t = total;
  total = t + 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  result = total;
  return 0;
}
