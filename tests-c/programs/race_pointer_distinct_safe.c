// expect: safe
// args: --races
// two threads write through pointers that never alias: each gets the address of its own global
// invariant: worker.1 writes only a, worker.2 only b (the pointers differ); main reads both after the joins
#include <pthread.h>

int a = 0, b = 0;
int sum;

void *worker(void *arg) {
  int *p = arg;
  *p = *p + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, &a);
  pthread_create(&t2, 0, worker, &b);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  sum = a + b;
  return 0;
}
