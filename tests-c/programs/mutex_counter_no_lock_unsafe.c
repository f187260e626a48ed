// expect: unsafe
// args: --no-races
// the counter of mutex_counter_safe.c without the lock: an update can be lost
// interleaving: t1 tmp = 0; t2 tmp = 0; t1 counter = 1; t2 counter = 1; joins; counter == 1
#include <pthread.h>
#include <assert.h>

int counter = 0;

void *worker(void *arg) {
  int tmp = counter;
  tmp = tmp + 1;
  counter = tmp;
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
