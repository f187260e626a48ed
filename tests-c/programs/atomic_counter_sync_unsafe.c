// expect: unsafe
// args: --no-races
// two threads increment a counter with __sync_add_and_fetch and each asserts it saw 1: the second one sees 2
// error: thread 1 adds (gets 1), thread 2 adds (gets 2) and its assertion fails
#include <pthread.h>
#include <assert.h>

int counter = 0;

void *worker(void *arg) {
  int now = __sync_add_and_fetch(&counter, 1);
  assert(now == 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
