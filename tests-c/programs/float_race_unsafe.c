// expect: unsafe
// args: --races
// Two threads write a shared double without a lock: a data race, whatever
// the values (the race check needs no floating-point value).
#include <pthread.h>

double level;

void *worker(void *arg) {
  level = level * 0.5 + 1.0;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  level = 2.0;
  pthread_join(t, 0);
  return 0;
}
