// expect: safe
// args: --no-races
// memory: a producer fills a struct and publishes a copy made with memcpy into a heap node under a mutex; the consumer reads both fields consistently
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
struct pair { int x; int y; };
struct pair *shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *producer(void *arg) {
  struct pair p;
  p.x = 7;
  p.y = 14;
  pthread_mutex_lock(&m);
  memcpy(shared, &p, sizeof(struct pair));
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  shared = calloc(1, sizeof(struct pair));
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&m);
  if (shared->y != 2 * shared->x) reach_error(); // 0 = 2*0 or 14 = 2*7
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  if (shared->x != 7) reach_error();
  return 0;
}
