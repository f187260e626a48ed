// expect: unsafe
// args: --property valid-memsafety
// A worker clears the shared pointer while main dereferences it without a
// lock: main can read through NULL (valid-deref). No heap: valid-memtrack holds.
#include <pthread.h>

int value = 7;
int *shared = &value;

void *worker(void *arg) {
  shared = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int v = *shared;
  pthread_join(t, 0);
  return v == 7 ? 0 : 1;
}
