// expect: unsafe
// a static local array of 50,000 integers (too large for a variable per
// element: one element, any, kept exactly) of which one element is set
// through the pointer its function returns: another is still 0, found in
// the model that keeps that element (no value the trace reads is
// arbitrary)
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int *table(void) {
  static int cells[50000];
  return cells;
}

int main(void) {
  table()[7] = 1;
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < 50000 && table()[j] != 1) {
    reach_error();
  }
  return 0;
}
