// expect: unsafe
// `locks_excluded`: a function that takes the lock itself is called with
// the lock held (with a recursive mutex, so the program does not
// deadlock: only the annotation is broken).
#include <pthread.h>

pthread_mutex_t mu;
int total __attribute__((guarded_by(mu)));

void add(int n) __attribute__((locks_excluded(mu)));
void add(int n) {
  pthread_mutex_lock(&mu);
  total += n;
  pthread_mutex_unlock(&mu);
}

void *worker(void *arg) {
  add(1);
  return 0;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&mu, &a);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&mu);
  add(2);
  pthread_mutex_unlock(&mu);
  pthread_join(t, 0);
  return 0;
}
