// expect: unsafe
// args: --races
// a race on a cell whose every write stores its initial value, read into a dead local: the cleanup that replaces such a cell by its constant must not hide it (found by the reduction differential, seed 1000083)
#include <pthread.h>
extern _Bool __VERIFIER_nondet_bool(void);

int g = 1;

void *writer(void *arg) {
  while (__VERIFIER_nondet_bool())
    g = 1;
  return 0;
}

void *reader(void *arg) {
  int l = g + 1;
  (void)l;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
