// expect: safe
// args: --no-races
// a producer writes data and posts a semaphore that starts at 0; the consumer waits on it before reading
// invariant: the semaphore is positive only after data == 42 was written
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

sem_t full;
int data = 0;

void *producer(void *arg) {
  data = 42;
  sem_post(&full);
  return 0;
}

void *consumer(void *arg) {
  sem_wait(&full);
  assert(data == 42);
  return 0;
}

int main(void) {
  pthread_t p, c;
  sem_init(&full, 0, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  assert(sem_trywait(&full) == -1);
  sem_destroy(&full);
  return 0;
}
