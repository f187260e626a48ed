// expect: unsafe
// args: --no-races
// int 200 converted to signed char is -56 (two's complement, as gcc defines it)
extern void reach_error(void);

int main(void) {
  int i = 200;
  signed char c = (signed char)i;
  if (c < 0) {
    reach_error();
  }
  return 0;
}
