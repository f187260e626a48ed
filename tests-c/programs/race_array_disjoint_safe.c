// expect: safe
// args: --races
// two threads run the same function on disjoint cells of a shared array: the index comes from the argument (0 or 1)
// invariant: worker.1 accesses only a[0], worker.2 only a[1]; both only read ids; main reads a after the joins
#include <pthread.h>

int a[2];
int ids[2] = {0, 1};
int sum;

void *worker(void *arg) {
  int i = *(int *)arg;
  a[i] = a[i] + i + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, &ids[0]);
  pthread_create(&t2, 0, worker, &ids[1]);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  sum = a[0] + a[1];
  return 0;
}
