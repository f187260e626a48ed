// expect: unsafe
// args: --property no-overflow
// A worker shifts 1 left by a shared amount another worker may have set to
// 31: the result does not fit in `int`.
#include <pthread.h>

int amount = 4;
int out;

void *setter(void *arg) {
  amount = 31;
  return 0;
}

void *shifter(void *arg) {
  out = 1 << amount;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, setter, 0);
  pthread_create(&t2, 0, shifter, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
