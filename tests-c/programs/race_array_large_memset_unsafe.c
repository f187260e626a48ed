// expect: unsafe
// args: --races
// a worker clears an array too large for a variable per element with
// memset while main writes one element without the lock: a data race on
// that element
#include <pthread.h>
#include <string.h>

int a[10000];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *clear(void *arg) {
  pthread_mutex_lock(&m);
  memset(a, 0, sizeof a);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, clear, 0);
  a[9999] = 1;
  pthread_join(t, 0);
  return 0;
}
