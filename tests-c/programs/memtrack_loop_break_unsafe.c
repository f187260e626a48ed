// expect: unsafe
// args: --property valid-memsafety
// Each round allocates into a local of the loop body and frees it, but a
// round that breaks out first leaves its block behind: the local's scope
// ends at the `break` (valid-memtrack).
#include <pthread.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
int rounds;

void *worker(void *arg) {
  for (int i = 0; i < 2; i++) {
    int *q = malloc(sizeof(int));
    *q = i;
    if (__VERIFIER_nondet_int())
      break;
    free(q);
  }
  rounds = 1;
  while (1) {
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  return 0;
}
