// expect: safe
// a static local array of 50,000 integers (zero at the start, one object
// for the whole program, too large for a variable per element: one
// element, any, kept exactly), reached through the pointer its function
// returns, filled with each element's index; any element checked
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int *table(void) {
  static int cells[50000];
  return cells;
}

int main(void) {
  int *t = table();
  for (int i = 0; i < 50000; i++) {
    t[i] = i;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < 50000 && table()[j] != j) {
    reach_error();
  }
  return 0;
}
