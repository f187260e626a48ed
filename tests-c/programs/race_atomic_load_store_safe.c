// expect: safe
// args: --races
// A flag written with __atomic_store_n and read with __atomic_load_n by
// another thread: both accesses are atomic, so they do not race; the data is
// written before the flag and read only after seeing it.
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
  if (__atomic_load_n(&flag, __ATOMIC_SEQ_CST) == 1) {
    int seen = data;
    (void)seen;
  }
  pthread_join(t, 0);
  return 0;
}
