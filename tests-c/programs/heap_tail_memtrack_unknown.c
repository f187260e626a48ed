// expect: unknown
// args: --property valid-memsafety
// a leak that would need the value of an element the model of arrays of run-time length does not track (it reads any value there): no counterexample (the element is 0, so `b` keeps its block), and no proof either (a leak is a condition at exit, not an error one thread's read leads to)
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2)
    return 0;
  int *a = malloc(n * sizeof(int));
  a[1] = 0;
  int *b = malloc(sizeof(int));
  if (a[1] == 5)
    b = 0;
  free(a);
  free(b);
  return 0;
}
