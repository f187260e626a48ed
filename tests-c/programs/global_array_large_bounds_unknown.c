// expect: unknown
// a store one past the end of a global array of 100,000 integers: an
// out-of-bounds access (valid-deref) the model that keeps one element
// exactly reaches, but cannot confirm (the array is too large to be
// searched exactly): unknown, never safe
extern int __VERIFIER_nondet_int(void);

int a[100000];

int main(void) {
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j <= 100000) {
    a[j] = 5;
  }
  return 0;
}
