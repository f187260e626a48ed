// expect: unsafe
// args: --no-races
// 10000 workers started through an array of thread handles, each given its
// index as a pointer; a worker converts it back to an integer it does not
// use (the conversion of a pointer to a 32-bit integer wraps it: a quotient
// chosen by an input that no step needs, dropped by the lowering), then
// adds 1 to a count under a mutex; the third worker to enter the critical
// section finds the count above 2
#include <pthread.h>
#include <stdint.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *worker(void *arg) {
  long id = (long)(intptr_t)arg;
  (void)id;
  pthread_mutex_lock(&m);
  count = count + 1;
  if (count > 2) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t ids[10000];
  for (int i = 0; i < 10000; i++) {
    pthread_create(&ids[i], 0, worker, (void *)(intptr_t)i);
  }
  for (int i = 0; i < 10000; i++) {
    pthread_join(ids[i], 0);
  }
  return 0;
}
