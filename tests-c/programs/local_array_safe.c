// expect: safe
// args: --no-races
// a constant-size local array with an initialiser, indexed by a loop variable; sum computed in a loop
extern void reach_error(void);

int main(void) {
  int v[4] = {3, 1, 4, 1};
  int sum = 0;
  int max = v[0];
  for (int i = 0; i < 4; i++) {
    sum += v[i];
    if (v[i] > max) {
      max = v[i];
    }
  }
  if (sum != 9 || max != 4) {
    reach_error();
  }
  return 0;
}
