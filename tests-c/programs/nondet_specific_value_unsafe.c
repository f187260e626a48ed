// expect: unsafe
// args: --no-races
// the bug needs one specific input: only x == 42 gives 3 * x + 7 == 133
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= -1000 && x <= 1000);
  int y = 3 * x + 7;
  if (y == 133) {
    reach_error();
  }
  return 0;
}
