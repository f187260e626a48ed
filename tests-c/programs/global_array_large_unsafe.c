// expect: unsafe
// a global array of 100,000 integers of which one element is set: another
// is still 0. Found in the model that keeps one element exactly (the one
// read): no value the trace reads is arbitrary, so the error is real
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int a[100000];

int main(void) {
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < 100000) {
    a[j] = 1;
  }
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 100000 && a[k] != 1) {
    reach_error();
  }
  return 0;
}
