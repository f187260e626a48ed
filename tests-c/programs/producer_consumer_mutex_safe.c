// expect: safe
// args: --no-races
// bounded buffer counter (capacity 2) under a mutex: add only when not full, remove only when not empty
// invariant (while m is free): 0 <= count <= 2
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
    if (count < 0 || count > 2) reach_error();
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    if (count > 0) {
      count--;
    }
    if (count < 0 || count > 2) reach_error();
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
  if (count < 0 || count > 2) reach_error();
  return 0;
}
