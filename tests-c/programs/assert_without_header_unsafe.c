// expect: unsafe
// args: --no-races
// assert(...) without #include <assert.h> fails like the macro when its condition is false
// error: after three iterations y == 7 and the assertion y < 7 fails
int main(void) {
  int x = 0;
  int y = 1;
  while (x < 3) {
    x++;
    y = y + 2;
  }
  assert(y < 7);
  return 0;
}
