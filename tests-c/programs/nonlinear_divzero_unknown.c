// expect: unknown
// args: --no-races
// true verdict: safe
// x / y with a nondet y that may be 0: division by zero gives up (undefined behaviour, not this property)
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x <= 5 && y >= 0 && y <= 5);
  int q = x / y;
  if (q > x) reach_error();
  return 0;
}
