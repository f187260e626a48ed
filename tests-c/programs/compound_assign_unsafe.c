// expect: unsafe
// args: --no-races
// post-decrement in a loop condition runs once more than the body: n ends at -1, not 0
extern void reach_error(void);

int main(void) {
  int n = 3;
  int count = 0;
  while (n-- > 0) {
    count++;
  }
  if (count != 3) {
    reach_error();   // never
  }
  if (n != 0) {
    reach_error();   // n == -1
  }
  return 0;
}
