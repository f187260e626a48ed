// expect: unsafe
// args: --races
// a join that orders nothing: main joins t1, then writes x, which t2 (not joined yet) also writes
// race: after the join of t1, main is about to store x while t2 has not run and is about to store x
#include <pthread.h>

int x = 0;

void *first(void *arg) {
  return 0;
}

void *second(void *arg) {
  x = 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, first, 0);
  pthread_create(&t2, 0, second, 0);
  pthread_join(t1, 0);
  x = 1;
  pthread_join(t2, 0);
  return 0;
}
