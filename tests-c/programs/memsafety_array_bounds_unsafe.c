// expect: unsafe
// args: --property valid-memsafety
// Workers index a global array by a shared counter they increment without
// a lock check of the bound: the third increment writes slots[3] past the end.
#include <pthread.h>

int slots[3];
int next;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  slots[next] = 1;
  next++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], 0);
  return 0;
}
