// expect: safe
// args: --no-races
// no input makes 2 * x equal to an odd number; 4 * x + 2 is never a multiple of 4
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= -100000 && x <= 100000);
  if (2 * x == 133) {
    reach_error();
  }
  if ((4 * x + 2) % 4 == 0) {
    reach_error();
  }
  return 0;
}
