// expect: unsafe
// args: --no-races
// unsigned char wraps modulo 256: 255 + 1 stored back is 0
extern void reach_error(void);

int main(void) {
  unsigned char c = 255;
  c = c + 1;
  if (c == 0) {
    reach_error();
  }
  return 0;
}
