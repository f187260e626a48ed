// expect: unsafe
// args: --no-races
// as heap_array_input_length_safe.c, but main reads the elements without waiting for the worker: one may not be written yet
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int *cells;
int n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *fill(void *arg) {
  for (int i = 0; i < n; i++) {
    pthread_mutex_lock(&m);
    cells[i] = i + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 4);
  cells = malloc(n * sizeof(int));
  pthread_create(&t, 0, fill, 0);
  for (int i = 0; i < n; i++) {
    assert(cells[i] == i + 1);
  }
  pthread_join(t, 0);
  free(cells);
  return 0;
}
