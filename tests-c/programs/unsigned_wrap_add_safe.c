// expect: safe
// args: --no-races
// unsigned addition x + 1 is smaller than x exactly when x == UINT_MAX (wraps to 0)
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = x + 1u;
  if (y < x) {
    // only the wrap-around makes the sum smaller
    __VERIFIER_assert(x == 4294967295u);
    __VERIFIER_assert(y == 0u);
  } else {
    __VERIFIER_assert(y == x + 1u);
    __VERIFIER_assert(x != 4294967295u);
  }
  return 0;
}
