// expect: unsafe
// args: --no-races
// a forgotten break: case 1 falls through into case 2 and y ends as 2
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = -1;
  switch (x) {
  case 1:
    y = 1;
  case 2:
    y = 2;
    break;
  default:
    y = 0;
    break;
  }
  if (x == 1 && y != 1) {
    reach_error();
  }
  return 0;
}
