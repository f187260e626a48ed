// expect: safe
// a global array of 100,000 integers with an initializer of zeros ({0}: the
// same as none, so one element, any, is kept exactly) filled with each
// element's index; any element checked
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int a[100000] = {0};

int main(void) {
  for (int i = 0; i < 100000; i++) {
    a[i] = i;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < 100000 && a[j] != j) {
    reach_error();
  }
  return 0;
}
