// expect: safe
// args: --no-races
// every negative int converts to an unsigned value >= 2^31, non-negative ints keep their value
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }

int main(void) {
  int i = __VERIFIER_nondet_int();
  unsigned int u = (unsigned int)i;
  if (i < 0) {
    __VERIFIER_assert(u >= 2147483648u);
  } else {
    __VERIFIER_assert(u <= 2147483647u);
    __VERIFIER_assert((int)u == i);
  }
  return 0;
}
