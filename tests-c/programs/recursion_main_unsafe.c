// expect: unsafe
// args: --no-races
// recursion is unrolled: sum(3) == 6 (3 + 2 + 1 + 0), which reaches the error
extern void reach_error(void);

int sum(int n) {
  if (n <= 0) {
    return 0;
  }
  return n + sum(n - 1);
}

int main(void) {
  if (sum(3) == 6) {
    reach_error();
  }
  return 0;
}
