// expect: safe
// args: --races
// a join that does order: main writes x only after joining the only thread that writes it (the other thread never touches x)
// invariant: writer's accesses of x happen before its join returns; idle accesses only its own local
#include <pthread.h>

int x = 0;

void *writer(void *arg) {
  x = 2;
  return 0;
}

void *idle(void *arg) {
  int mine = 5;
  mine++;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, idle, 0);
  pthread_join(t1, 0);
  x = x + 1;
  pthread_join(t2, 0);
  return 0;
}
