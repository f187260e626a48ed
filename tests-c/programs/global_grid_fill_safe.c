// expect: safe
// A two-dimensional global array of 2000 rows of 4 (8000 cells: too many
// for a variable each) is filled row by row up to an input count; any
// filled row's third cell is then checked. The array is one tracked row
// of four cells.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int grid[2000][4];

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 2000)
    return 0;
  for (int r = 0; r < n; r++) {
    grid[r][1] = 7;
    grid[r][2] = 1;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < n && grid[j][2] != 1)
    reach_error();
  return 0;
}
