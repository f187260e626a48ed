// expect: unsafe
// memset of one element more than a heap array of an input length holds:
// an invalid dereference (valid-deref)
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000)
    return 0;
  int *b = malloc(n * sizeof(int));
  memset(b, 0, (n + 1) * sizeof(int));
  free(b);
  return 0;
}
