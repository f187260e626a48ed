// expect: safe
// args: --no-races
// sscanf with a floating-point conversion: the count of conversions is
// any value from EOF to 2, the integer target any value when converted;
// the double target gets the abstract value.
#include <assert.h>
#include <stdio.h>

int main(void) {
  int n = 5;
  double d = 0.0;
  int r = sscanf("3 2.5", "%d %lf", &n, &d);
  assert(r >= -1 && r <= 2);
  if (r < 1)
    assert(n == 5);
  return 0;
}
