// expect: safe
// a heap array of an input length filled by a loop, then any one element
// checked: proved with the implication "below i, the element is 1"
// (i <= k || a[k] == 1 of the element k the tail tracks)
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) {
    return 0;
  }
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) {
    a[i] = 1;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n && a[j] != 1) {
    reach_error();
  }
  free(a);
  return 0;
}
