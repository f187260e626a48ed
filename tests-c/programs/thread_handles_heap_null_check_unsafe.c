// expect: unsafe
// args: --no-races
// a global pointer to thread handles tested against null before its
// allocation (null: the error) and after it
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

pthread_t *ids;

void *worker(void *arg) { return 0; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000) {
    return 0;
  }
  if (n > 3 && ids == NULL)
    reach_error();
  ids = malloc(n * sizeof(pthread_t));
  if (!ids)
    return 1;
  for (int i = 0; i < n; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (int i = 0; i < n; i++) {
    pthread_join(ids[i], 0);
  }
  free(ids);
  return 0;
}
