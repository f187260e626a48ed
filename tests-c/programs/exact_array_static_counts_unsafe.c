// expect: unsafe
// Two workers increment one element of a static array of 20,000 counters
// under a mutex; main finds the count 2. The bug reads the element twice
// in one thread and once in main: the exact array model's trace
// (data[12345] = 2 is shown where it is written).
#include <pthread.h>
extern void reach_error(void);

int data[20000];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int k = *(int *)arg;
  pthread_mutex_lock(&m);
  data[k] = data[k] + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int i = 12345, j = 12345;
  pthread_create(&t1, 0, worker, &i);
  pthread_create(&t2, 0, worker, &j);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (data[12345] == 2)
    reach_error();
  return 0;
}
