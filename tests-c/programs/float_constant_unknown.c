// expect: unknown
// args: --no-races
// true verdict: safe
// floating-point values are abstracted, even constants: the comparison may
// be true in the model (0.1 + 0.2 != 0.3 in binary doubles), and the
// counterexample that takes it observes a value no execution has
extern void reach_error(void);

int main(void) {
  double a = 0.1;
  double b = 0.2;
  double c = a + b;
  if (c == 0.3) {
    reach_error();   // never: 0.1 + 0.2 is 0.30000000000000004
  }
  return 0;
}
