// expect: unsafe
// args: --no-races
// the ternary operator picks 20 when the nondet bool is false
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
  _Bool c = __VERIFIER_nondet_bool();
  int r = c ? 10 : 20;
  if (r != 10 && r != 20) {
    reach_error();   // never
  }
  if (r == 20) {
    reach_error();   // when c == 0
  }
  return 0;
}
