// expect: unsafe
// args: --no-races
// counter = counter + 1 on an _Atomic int is an atomic load and a separate atomic store: an update can be lost
// error: both threads read 0, both write 1, counter == 1 after the joins
#include <pthread.h>
#include <assert.h>

_Atomic int counter;

void *worker(void *arg) {
  counter = counter + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 2);
  return 0;
}
