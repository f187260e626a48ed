// expect: unsafe
// args: --no-races
// a nondet unsigned int can exceed INT_MAX (range is [0, 2^32-1])
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int u = __VERIFIER_nondet_uint();
  if (u > 2147483647u) {
    reach_error();
  }
  return 0;
}
