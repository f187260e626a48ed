// expect: safe
// args: --no-races
// two threads increment a counter under a mutex; after joining both, counter == 2
// invariant: the read-increment-write of counter happens with m held, so no update is lost
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int tmp = counter;
  tmp = tmp + 1;
  counter = tmp;
  pthread_mutex_unlock(&m);
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
