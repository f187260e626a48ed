// expect: unsafe
// args: --races
// race_atomic_load_store_safe.c with main reading data before it checks the
// flag: the atomics on flag do not order the plain read of data with the
// writer's plain write.
#include <pthread.h>

int flag;
int data;

void *writer(void *arg) {
  data = 7;
  __atomic_store_n(&flag, 1, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  int seen = data;
  if (__atomic_load_n(&flag, __ATOMIC_SEQ_CST) == 1) {
    (void)seen;
  }
  pthread_join(t, 0);
  return 0;
}
