// expect: unknown
// true verdict: safe
// a local array of 5,000 integers declared in a loop body: each iteration
// has a fresh array, but the model of arrays too large for a variable per
// element covers one execution of the declaration, so the second one gives
// up (an old element kept would be one value of many: never safe by it)
extern void reach_error(void);

int main(void) {
  int total = 0;
  for (int r = 0; r < 2; r++) {
    int a[5000];
    a[r] = r + 1;
    total += a[r];
  }
  if (total != 3) {
    reach_error();
  }
  return 0;
}
