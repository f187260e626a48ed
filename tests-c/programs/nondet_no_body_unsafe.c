// expect: unsafe
// args: --no-races
// nondet_int() without a definition (and without a declaration) may return any int, including 12345
// error: the input 12345 reaches reach_error()
void reach_error(void);

int main(void) {
  int x = nondet_int();
  if (x == 12345)
    reach_error();
  return 0;
}
