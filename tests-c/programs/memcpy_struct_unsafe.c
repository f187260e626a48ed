// expect: unsafe
// args: --no-races
// memory: the same copy with memcpy but the consumer reads without the mutex: memcpy writes x before y, so the reader can see x = 7 and y = 0
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
struct pair { int x; int y; };
struct pair *shared;
void *producer(void *arg) {
  struct pair p;
  p.x = 7;
  p.y = 14;
  memcpy(shared, &p, sizeof(struct pair));
  return 0;
}
int main(void) {
  pthread_t t;
  shared = calloc(1, sizeof(struct pair));
  pthread_create(&t, 0, producer, 0);
  int x = shared->x;
  int y = shared->y;
  if (y != 2 * x) reach_error();
  pthread_join(t, 0);
  return 0;
}
