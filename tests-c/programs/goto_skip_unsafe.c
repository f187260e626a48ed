// expect: unsafe
// args: --no-races
// a forward goto skips the statement that sets y, so y is still 0 at the label
// with x > 5 the jump is taken and the error is reached
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int y = 0;

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 5) {
    goto check;
  }
  y = 1;
check:
  if (y == 0) {
    reach_error();
  }
  return 0;
}
