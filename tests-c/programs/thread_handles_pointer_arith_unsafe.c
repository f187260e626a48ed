// expect: unsafe
// args: --no-races --no-deadlocks
// Workers started through an array of thread handles addressed by pointer
// arithmetic (`ids + i`, `*(ids + i)`); main joins all but the last and
// checks the count, which the last worker may not have added to yet
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
  pthread_t ids[3];
  for (int i = 0; i < 3; i++) {
    pthread_create(ids + i, 0, worker, 0);
  }
  for (int i = 0; i < 2; i++) {
    pthread_join(*(ids + i), 0);
  }
  if (count != 3) {
    reach_error();
  }
  return 0;
}
