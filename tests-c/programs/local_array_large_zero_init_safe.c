// expect: safe
// a local array too large for a variable per element, initialised with
// zeros (= {0}): one element an input chooses is written, any other one
// still reads 0
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int a[50000] = {0};
  int i = __VERIFIER_nondet_int();
  int j = __VERIFIER_nondet_int();
  if (i < 0 || i >= 50000 || j < 0 || j >= 50000)
    return 0;
  a[i] = 7;
  if (j != i)
    __VERIFIER_assert(a[j] == 0);
  __VERIFIER_assert(a[i] == 7);
  return 0;
}
