// expect: safe
// args: --no-races
// a __thread variable has one copy per thread: each worker increments its own copy from 0, main's copy keeps 5
// invariant: no thread ever touches another thread's copy of x
#include <pthread.h>
#include <assert.h>

__thread int x;

void *worker(void *arg) {
  x++;
  assert(x == 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  x = 5;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == 5);
  return 0;
}
