// expect: safe
// args: --races
// race_counter_unsafe.c with the increment under a mutex; main reads counter after both joins
// invariant: a thread touches counter only while it holds m, and main only after joining both
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;
int result;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  result = counter;
  return 0;
}
