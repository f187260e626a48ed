// expect: safe
// args: --no-races
// __VERIFIER_assume cuts off the executions where its argument is false
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 10 && x < 20);
  if (x <= 10 || x >= 20) {
    reach_error();
  }
  int y = x * 2 + 1;
  if (y < 23 || y > 39) {
    reach_error();
  }
  return 0;
}
