// expect: unsafe
// args: --no-races
// stepping by 2 overshoots an odd bound: with n == 1 the loop ends with i == 2
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000);
  int i = 0;
  while (i < n) {
    i += 2;
  }
  if (i != n) {
    reach_error();
  }
  return 0;
}
