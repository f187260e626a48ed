// expect: safe
// args: --no-races
// The same, with the test and the clearing under a mutex: one thread frees.
#include <pthread.h>
#include <stdlib.h>

int *p;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int *q = p;
  p = 0;
  pthread_mutex_unlock(&m);
  if (q != 0)
    free(q);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  p = malloc(sizeof(int));
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
