// expect: safe
// a global array of 100,000 integers (too large for a variable per
// element: one element, any, is kept exactly) filled through a pointer
// with each element's index, its length from sizeof; any element checked
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int a[100000];

int main(void) {
  int n = sizeof(a) / sizeof(a[0]);
  int *p = a;
  for (int i = 0; i < n; i++) {
    p[i] = i;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n && a[j] != j) {
    reach_error();
  }
  return 0;
}
