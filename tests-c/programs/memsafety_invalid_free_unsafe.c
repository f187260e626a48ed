// expect: unsafe
// args: --property valid-memsafety
// A worker frees a pointer into the middle of a heap array (valid-free).
#include <pthread.h>
#include <stdlib.h>

int *a;

void *worker(void *arg) {
  free(a + 1);
  return 0;
}

int main(void) {
  pthread_t t;
  a = malloc(2 * sizeof(int));
  a[0] = 1;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
