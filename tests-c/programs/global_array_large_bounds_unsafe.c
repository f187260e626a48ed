// expect: unsafe
// a store one past the end of a global array of 100,000 integers: an
// out-of-bounds access (valid-deref), found in the model that keeps one
// element exactly (no value the trace reads is arbitrary)
extern int __VERIFIER_nondet_int(void);

int a[100000];

int main(void) {
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j <= 100000) {
    a[j] = 5;
  }
  return 0;
}
