// expect: safe
// a local array of 100,000 integers in main (too large for a variable per
// element: one element, any, kept exactly; its declaration runs once)
// filled with each element's index; any element checked
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a[100000];
  for (int i = 0; i < 100000; i++) {
    a[i] = i;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < 100000 && a[j] != j) {
    reach_error();
  }
  return 0;
}
