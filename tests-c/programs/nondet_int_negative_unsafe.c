// expect: unsafe
// args: --no-races
// a nondet int can be negative (any value in [-2^31, 2^31-1])
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 0) {
    reach_error();
  }
  return 0;
}
