// expect: safe
// args: --no-races
// two counters in a loop with nondet bound: j == 2 * i is invariant, so j == 2 * n at exit
// invariant: 0 <= i <= n <= 1000 and j == 2 * i (no overflow possible)
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 1000u);
  unsigned int i = 0, j = 0;
  while (i < n) {
    i = i + 1;
    j = j + 2;
  }
  if (j != 2 * n) {
    reach_error();
  }
  return 0;
}
