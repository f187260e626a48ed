// expect: unknown
// true verdict: safe
// realloc of a heap array of an input length (a tail) to four elements
// keeps its first elements: not modelled, so unknown (before: a wrong
// "valid-free is violated", the tail taken for a pointer that is not the
// start of a heap block)
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 4 || n > 100000)
    return 0;
  int *a = malloc(n * sizeof(int));
  a[2] = 3;
  int *b = realloc(a, 4 * sizeof(int));
  if (!b)
    return 0;
  __VERIFIER_assert(b[2] == 3);
  free(b);
  return 0;
}
