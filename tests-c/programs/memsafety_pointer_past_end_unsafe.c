// expect: unsafe
// args: --property valid-memsafety
// A worker writes through a pointer one past the end of a two-element array
// (valid-deref).
#include <pthread.h>

int a[2];
int *p;

void *worker(void *arg) {
  p[2] = 1;
  return 0;
}

int main(void) {
  p = a;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
