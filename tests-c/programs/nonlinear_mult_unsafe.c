// expect: unsafe
// args: --no-races
// non-linear multiplication of two unknowns: x * y == 391 for x = 17, y = 23 (both in [2, 100])
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 2 && x <= 100);
  __VERIFIER_assume(y >= 2 && y <= 100);
  if (x * y == 391) {
    reach_error();
  }
  return 0;
}
