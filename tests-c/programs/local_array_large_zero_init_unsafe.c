// expect: unsafe
// the twin of local_array_large_zero_init_safe.c checks every element,
// the one written included: it fails where j == i
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int a[50000] = {0};
  int i = __VERIFIER_nondet_int();
  int j = __VERIFIER_nondet_int();
  if (i < 0 || i >= 50000 || j < 0 || j >= 50000)
    return 0;
  a[i] = 7;
  __VERIFIER_assert(a[j] == 0);
  return 0;
}
