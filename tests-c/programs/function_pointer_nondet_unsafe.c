// expect: unsafe
// args: --no-races
// a function pointer chosen at run time from a nondet: the call is a case split over the functions used as values, and set_two sets x to 2
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int x = 0;

void set_one(void) { x = 1; }
void set_two(void) { x = 2; }

int main(void) {
  void (*fp)(void);
  if (__VERIFIER_nondet_int()) {
    fp = set_one;
  } else {
    fp = set_two;
  }
  fp();
  if (x == 2) {
    reach_error();
  }
  return 0;
}
