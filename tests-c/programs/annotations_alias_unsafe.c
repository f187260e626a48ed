// expect: unsafe
// `guarded_by` protects the memory, not the name: a write through a
// pointer to the guarded counter, without the lock, is an access to it
// (Clang's check, which follows names, does not see it).
#include <pthread.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
int count __attribute__((guarded_by(mu)));

void add(int *p, int n) { *p += n; }

void *worker(void *arg) {
  pthread_mutex_lock(&mu);
  add(&count, 1);
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  add(&count, 2);
  return 0;
}
