// expect: safe
// args: --no-races
// unsigned x - 1 is smaller than x unless x == 0, where it wraps to UINT_MAX
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = x - 1u;
  if (x == 0u) {
    __VERIFIER_assert(y == 4294967295u);
  } else {
    __VERIFIER_assert(y < x);
    __VERIFIER_assert(y + 1u == x);
  }
  return 0;
}
