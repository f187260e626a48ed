// expect: unknown
// args: --no-races
// true verdict: unsafe
// floating-point values are abstracted: a nondet double can exceed 0.5, but
// the counterexample observes an abstracted comparison, so it is not
// reported
extern void reach_error(void);
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);

int main(void) {
  double d = __VERIFIER_nondet_double();
  __VERIFIER_assume(d >= 0.0 && d <= 1.0);
  if (d > 0.5) {
    reach_error();
  }
  return 0;
}
