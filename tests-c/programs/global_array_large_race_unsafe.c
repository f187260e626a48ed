// expect: unsafe
// args: --races
// two threads write the same element of a global array of 10,000 integers
// (too large for a variable per element: one element, any, kept exactly)
// without a lock: a data race on a[5000], found in the model whose kept
// element is that one (no value read there is arbitrary)
#include <pthread.h>

int a[10000];

void *left(void *arg) {
  a[5000] = 1;
  return 0;
}

void *right(void *arg) {
  a[5000] = 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, left, 0);
  pthread_create(&t2, 0, right, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
