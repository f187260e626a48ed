// expect: unsafe
// args: --property valid-memsafety
// the twin of heap_tail_memtrack_unknown.c drops its pointer to the block when the element is 0, as it is: the leak is found in the exact model of arrays of at most 8 elements
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2)
    return 0;
  int *a = malloc(n * sizeof(int));
  a[1] = 0;
  int *b = malloc(sizeof(int));
  if (a[1] == 0)
    b = 0;
  free(a);
  free(b);
  return 0;
}
