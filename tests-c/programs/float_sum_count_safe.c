// expect: safe
// args: --no-races
// Two workers add square roots into a shared double under a mutex and
// count their turns in an int. Floating-point values are abstracted (any
// value where C observes one); the assertion about the count observes
// none, so it is proved.
#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>

double total = 0.0;
int count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  double x = 1.5 * *(int *)arg;
  pthread_mutex_lock(&m);
  total += sqrt(x);
  count++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  int a = 1, b = 2;
  pthread_create(&t1, 0, worker, &a);
  pthread_create(&t2, 0, worker, &b);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  printf("mean %f\n", total / count);
  assert(count == 2);
  return 0;
}
