// expect: unsafe
// a heap array of an input length filled by a loop that stops one short:
// the last element holds whatever malloc left there
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) {
    return 0;
  }
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n - 1; i++) {
    a[i] = 1;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n && a[j] != 1) {
    reach_error();
  }
  free(a);
  return 0;
}
