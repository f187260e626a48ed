// expect: safe
// args: --races
// the twin of race_array_large_memset_unsafe.c writes the element under
// the lock as well: no data race
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
  pthread_mutex_lock(&m);
  a[9999] = 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
