// expect: unsafe
// the twin of vla_input_length_safe.c stops one element short: the last
// element holds whatever the uninitialised array held
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000)
    return 0;
  int a[n];
  for (int i = 0; i < n - 1; i++)
    a[i] = i;
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n)
    __VERIFIER_assert(a[j] == j);
  return 0;
}
