// expect: safe
// args: --property no-overflow
// Workers update an unsigned hash, which wraps: unsigned arithmetic is never
// an overflow (the int counter beside it stays small).
#include <pthread.h>

unsigned hash = 4000000000u;
int rounds;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  hash = hash * 31u + 7u;
  rounds = rounds + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
