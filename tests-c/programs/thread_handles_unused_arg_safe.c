// expect: safe
// args: --no-races --no-deadlocks
// timeout: 150
// 10000 workers started through an array of thread handles, each given its
// index as a pointer; a worker converts it back to an integer it does not
// use (the conversion of a pointer to a 32-bit integer wraps it: a quotient
// chosen by an input that no step needs, dropped by the lowering), then
// adds 1 to a count under a mutex; main joins them all and checks the count
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
  if (count != 10000) {
    reach_error();
  }
  return 0;
}
