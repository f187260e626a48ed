// expect: unsafe
// args: --no-races
// _Bool b = 2 stores 1, so b + b is 2 (not 4)
extern void reach_error(void);

int main(void) {
  _Bool b = 2;
  int x = b + b;
  if (x == 2) {
    reach_error();
  }
  return 0;
}
