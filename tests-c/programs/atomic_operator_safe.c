// expect: safe
// args: --no-races
// two threads apply ++ and += 2 to an _Atomic int: each operator is one indivisible step, so the total is 6
// invariant: no update of the atomic counter is lost
#include <pthread.h>
#include <assert.h>

_Atomic int counter;

void *worker(void *arg) {
  counter++;
  counter += 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 6);
  return 0;
}
