// expect: safe
// args: --engine magic --spec spec_lock_order.spec
// MAGIC (--engine magic) proves the calls of acquire() and release(), each thread's pair inside one critical section of the mutex, alternate as spec_lock_order.spec says.
#include <pthread.h>

void acquire(void);
void release(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    acquire();
    release();
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  acquire();
  release();
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
