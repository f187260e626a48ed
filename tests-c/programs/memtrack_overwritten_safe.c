// expect: safe
// args: --property valid-memsafety
// The worker frees the block before it replaces the pointer, under the lock
// that main also takes to free the second one.
#include <pthread.h>
#include <stdlib.h>

int *slot;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  free(slot);
  slot = malloc(sizeof(int));
  *slot = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  slot = malloc(sizeof(int));
  *slot = 1;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(slot);
  return 0;
}
