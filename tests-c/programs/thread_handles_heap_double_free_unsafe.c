// expect: unsafe
// the heap block of thread handles a global pointer holds is freed twice
// (valid-free)
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;
pthread_t *threads;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  threads = malloc(sizeof(pthread_t) * 3);
  for (int i = 0; i < 3; i++) {
    pthread_create(&threads[i], 0, worker, 0);
  }
  for (int i = 0; i < 3; i++) {
    pthread_join(threads[i], 0);
  }
  free(threads);
  free(threads);
  return 0;
}
