// expect: safe
// the producer posts the semaphore on every path: the consumer's wait ends
#include <pthread.h>
#include <semaphore.h>
extern int __VERIFIER_nondet_int(void);

sem_t items;
int item;

void *producer(void *arg) {
  int v = __VERIFIER_nondet_int();
  if (v > 0)
    item = v;
  sem_post(&items);
  return 0;
}

void *consumer(void *arg) {
  sem_wait(&items);
  return 0;
}

int main(void) {
  pthread_t p, c;
  sem_init(&items, 0, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
