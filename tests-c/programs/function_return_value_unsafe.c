// expect: unsafe
// args: --no-races
// a function with several return statements; clamp(10) returns 10, which is > 9
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int clamp(int x) {
  if (x > 10) {
    return 10;
  }
  if (x < 0) {
    return 0;
  }
  return x;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int c = clamp(x);
  if (c < 0 || c > 10) {
    reach_error();          // never
  }
  if (c > 9) {
    reach_error();          // x >= 10
  }
  return 0;
}
