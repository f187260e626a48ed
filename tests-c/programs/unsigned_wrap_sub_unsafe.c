// expect: unsafe
// args: --no-races
// unsigned subtraction below zero wraps: 0u - 1u == 4294967295
extern void reach_error(void);

int main(void) {
  unsigned int a = 0u;
  unsigned int b = a - 1u;
  // b is 4294967295, not -1: the test is true
  if (b > 1000u) {
    reach_error();
  }
  return 0;
}
