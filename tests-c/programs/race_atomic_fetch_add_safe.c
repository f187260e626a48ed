// expect: safe
// args: --races
// two threads add to an _Atomic int, one with C11 atomic_fetch_add, the other with GCC's __atomic_fetch_add: atomic accesses never race
// invariant: every access of counter by the threads is atomic; main reads it after both joins
#include <pthread.h>
#include <stdatomic.h>

_Atomic int counter;
int result;

void *c11(void *arg) {
  atomic_fetch_add(&counter, 1);
  return 0;
}

void *gcc(void *arg) {
  __atomic_fetch_add(&counter, 2, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, c11, 0);
  pthread_create(&t2, 0, gcc, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  result = atomic_load(&counter);
  return 0;
}
