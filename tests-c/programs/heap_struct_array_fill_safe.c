// expect: safe
// A heap array of structs of an input length (up to 100,000 elements) is
// filled by a loop, each element's two members; any element's second
// member is then checked. The array is one tracked element of two cells
// (SOUNDNESS.md, "Heap arrays of run-time length"); the proof is the
// loop's invariant `i <= k ∨ a_k.val = k + 1` of the tracked element `k`.
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
    items[i].val = i + 1;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n && items[j].val != j + 1)
    reach_error();
  free(items);
  return 0;
}
