// expect: unsafe
// args: --no-races
// Two threads each free the shared block when they see it non-null, without
// a lock: both can pass the test before either clears the pointer (valid-free).
#include <pthread.h>
#include <stdlib.h>

int *p;

void *worker(void *arg) {
  int *q = p;
  if (q != 0) {
    p = 0;
    free(q);
  }
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
