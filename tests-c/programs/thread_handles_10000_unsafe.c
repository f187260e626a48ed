// expect: unsafe
// args: --no-races
// 10000 workers started through an array of thread handles (no cells: the
// array is only used by pthread_create and pthread_join); the third worker
// to enter the critical section finds the count above 2
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  if (count > 2) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t ids[10000];
  for (int i = 0; i < 10000; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (int i = 0; i < 10000; i++) {
    pthread_join(ids[i], 0);
  }
  return 0;
}
