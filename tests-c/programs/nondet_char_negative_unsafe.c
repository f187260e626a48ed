// expect: unsafe
// args: --no-races
// a nondet plain char is signed on this target: it can be -128 (and -128 + 1 stays in range)
extern void reach_error(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
  char c = __VERIFIER_nondet_char();
  int x = c + 1;
  if (x == -127) {
    reach_error();
  }
  return 0;
}
