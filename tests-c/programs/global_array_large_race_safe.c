// expect: safe
// the twin of global_array_large_race_unsafe.c: the two threads write
// neighbouring elements of the array of 10,000 integers, so no element is
// accessed by both: race-free for every choice of the element the model
// keeps exactly
#include <pthread.h>

int a[10000];

void *left(void *arg) {
  a[5000] = 1;
  return 0;
}

void *right(void *arg) {
  a[5001] = 2;
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
