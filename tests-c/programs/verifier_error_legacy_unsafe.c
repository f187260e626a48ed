// expect: unsafe
// args: --no-races
// the older SV-COMP error function __VERIFIER_error() is the error too
extern void __VERIFIER_error(void) __attribute__((__noreturn__));
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x + 1;
  if (x >= 0 && x < 10 && y == 10) {
    __VERIFIER_error();
  }
  return 0;
}
