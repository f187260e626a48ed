// expect: safe
// a variable-length array whose length is an input (up to 100,000), each
// element set to its index by a loop; any element then holds its index
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000)
    return 0;
  int a[n];
  for (int i = 0; i < n; i++)
    a[i] = i;
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n)
    __VERIFIER_assert(a[j] == j);
  return 0;
}
