// expect: safe
// args: --no-races
// a heap array whose length is an input (1 to 4) is filled by a worker under a lock and read back by main after the join: every element holds what was written (reads and writes stay within the length)
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
  pthread_join(t, 0);
  for (int i = 0; i < n; i++) {
    assert(cells[i] == i + 1);
  }
  free(cells);
  return 0;
}
