// expect: unsafe
// args: --no-races
// unsigned int addition wraps modulo 2^32: UINT_MAX + 1 == 0
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = 4294967295u;
  unsigned int y = x + 1u;
  // y is 0 after the wrap, so y < x holds and the error is reached
  if (y < x) {
    reach_error();
  }
  return 0;
}
