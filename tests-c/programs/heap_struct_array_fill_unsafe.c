// expect: unsafe
// A heap array of structs of an input length is filled by a loop; past
// the loop one element's member is overwritten when the array has more
// than four elements, and a check of any element finds it.
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct item {
  int key;
  int val;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000)
    return 0;
  struct item *items = malloc(n * sizeof(struct item));
  if (!items)
    return 0;
  for (int i = 0; i < n; i++) {
    items[i].key = i;
    items[i].val = 1;
  }
  if (n > 4)
    items[3].val = 5;
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n && items[j].val != 1)
    reach_error();
  free(items);
  return 0;
}
