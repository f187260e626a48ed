// expect: safe
// any number of workers, started in a loop bounded by an input, each reads the counter and writes it back plus one in two critical sections (updates may be lost): the counter never exceeds the number of workers
// invariant: x <= the workers past their write <= the workers started <= n; a worker between read and write holds t <= the workers past their write
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;
int n = 0;

void *checker(void *arg) {
  pthread_mutex_lock(&m);
  if (x > n) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}

void *worker(void *arg) {
  int t;
  pthread_mutex_lock(&m);
  t = x;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  x = t + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t c, w;
  int k = __VERIFIER_nondet_int();
  if (k <= 0) {
    return 0;
  }
  pthread_mutex_lock(&m);
  n = k;
  pthread_mutex_unlock(&m);
  pthread_create(&c, 0, checker, 0);
  for (int i = 0; i < k; i++) {
    pthread_create(&w, 0, worker, 0);
  }
  return 0;
}
