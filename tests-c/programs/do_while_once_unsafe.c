// expect: unsafe
// args: --no-races
// a do-while body runs once even when the condition is false from the start
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 100);
  int c = 0;
  do {
    c++;
  } while (c < n);
  if (c != n) {   // with n == 0, c is 1
    reach_error();
  }
  return 0;
}
