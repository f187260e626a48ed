// expect: safe
// args: --no-races
// a non-atomic read-increment-write made atomic with __VERIFIER_atomic_begin/end: no lost update
#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int counter = 0;

void *inc(void *arg) {
  __VERIFIER_atomic_begin();
  int tmp = counter;
  counter = tmp + 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, inc, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 2);
  return 0;
}
