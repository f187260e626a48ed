// expect: safe
// args: --no-races --no-deadlocks
// 10000 workers started through an array of thread handles addressed by
// pointer arithmetic (`ids + i` to create, `*(ids + i)` to join), each
// adding 1 to a count under a mutex; main joins them all and checks the
// count: the array is one of handles, as with `&ids[i]` and `ids[i]`
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t ids[10000];
  for (int i = 0; i < 10000; i++) {
    pthread_create(ids + i, 0, worker, 0);
  }
  for (int i = 0; i < 10000; i++) {
    pthread_join(*(ids + i), 0);
  }
  if (count != 10000) {
    reach_error();
  }
  return 0;
}
