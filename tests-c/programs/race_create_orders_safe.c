// expect: safe
// args: --races
// pthread_create orders: main writes x before creating the thread that reads it, and does not touch x afterwards
// invariant: main's write of x happens before the thread exists; afterwards only the thread accesses x
#include <pthread.h>

int x = 0;
int seen;

void *reader(void *arg) {
  seen = x;
  return 0;
}

int main(void) {
  pthread_t t;
  x = 42;
  pthread_create(&t, 0, reader, 0);
  pthread_join(t, 0);
  return 0;
}
