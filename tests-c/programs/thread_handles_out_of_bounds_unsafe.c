// expect: unsafe
// the join loop runs one past the end of the array of thread handles: an
// out-of-bounds read (valid-deref)
#include <pthread.h>

int count = 0;

void *worker(void *arg) {
  return 0;
}

int main(void) {
  pthread_t ids[2];
  for (int i = 0; i < 2; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (int i = 0; i <= 2; i++) {
    pthread_join(ids[i], 0);
  }
  return 0;
}
