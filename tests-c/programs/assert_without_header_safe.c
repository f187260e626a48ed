// expect: safe
// args: --no-races
// assert(...) called without #include <assert.h> (an implicitly declared function) checks its condition like the macro
// invariant: y == 2 * x + 1 is odd, so y != 0 and the assertion holds for every x
int main(void) {
  int x = 0;
  int y = 2 * x + 1;
  while (x < 3) {
    x++;
    y = y + 2;
  }
  assert(y % 2 == 1);
  return 0;
}
