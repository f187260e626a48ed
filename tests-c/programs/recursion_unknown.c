// expect: unknown
// args: --no-races
// true verdict: safe
// recursion is unrolled up to 8 activations of a function: f(n) returns 0
// for every n in [0, 10], but n >= 8 needs more activations (a give-up)
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int f(int n) { return n ? f(n - 1) : 0; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 10);
  if (f(n) != 0) {
    reach_error();
  }
  return 0;
}
