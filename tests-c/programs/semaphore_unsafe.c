// expect: unsafe
// args: --no-races
// semaphore_safe.c with the semaphore starting at 1: the consumer may read before the producer wrote
// error: the consumer passes sem_wait at once and reads data == 0
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
  sem_init(&full, 0, 1);
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);

  sem_destroy(&full);
  return 0;
}
