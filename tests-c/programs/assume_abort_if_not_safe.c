// expect: safe
// args: --no-races
// the SV-COMP helper assume_abort_if_not: abort() when the condition is false
extern void abort(void);
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }

int main(void) {
  unsigned int a = __VERIFIER_nondet_uint();
  unsigned int b = __VERIFIER_nondet_uint();
  assume_abort_if_not(a <= 100u);
  assume_abort_if_not(b <= 100u);
  unsigned int s = a + b;      // at most 200, no wrap
  __VERIFIER_assert(s >= a);
  __VERIFIER_assert(s <= 200u);
  return 0;
}
