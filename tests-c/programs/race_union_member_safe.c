// expect: safe
// args: --races
// two threads store and read members of a shared union, each access under the same mutex
// no race: every access to u holds m
#include <pthread.h>

union value { int count; char flag; };
union value u;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  u.flag = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  u.count = 2;
  int c = u.count;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return c == 3;
}
