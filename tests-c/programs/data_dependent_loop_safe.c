// expect: safe
// args: --no-races
// a loop bounded by a nondet n >= 0: after while (i < n) i++, i == n
// invariant: 0 <= i <= n (so i + 1 never overflows, and on exit i >= n gives i == n)
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0);
  int i = 0;
  while (i < n) {
    i++;
  }
  assert(i == n);
  return 0;
}
