// expect: safe
// args: --no-races
// 10000 identical workers started in a loop, each enters a critical section under a mutex: proved for any number
// invariant: inside is 1 exactly while some worker holds m, else 0 (counters of the workers' local states)
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int inside = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  inside = inside + 1;
  if (inside != 1) {
    reach_error();
  }
  inside = inside - 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  for (int i = 0; i < 10000; i++) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
