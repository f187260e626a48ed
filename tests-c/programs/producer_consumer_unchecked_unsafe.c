// expect: unsafe
// args: --no-races
// the bounded buffer of producer_consumer_mutex_safe.c whose consumer forgets the empty check
// interleaving: consumer locks first while count == 0, decrements to -1; error
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *producer(void *arg) {
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    if (count < 2) {
      count++;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    count--;
    if (count < 0) reach_error();
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
