// expect: unknown
// true verdict: safe
// a variable-length array declared in a loop body: the model covers the
// first execution of its declaration only, the second gives up
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000)
    return 0;
  for (int round = 0; round < 2; round++) {
    int a[n];
    a[n - 1] = round;
    __VERIFIER_assert(a[n - 1] == round);
  }
  return 0;
}
