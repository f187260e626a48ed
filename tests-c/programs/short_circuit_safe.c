// expect: safe
// args: --no-races
// && and || skip their right operand when the left one decides: no out-of-range read, no side effect
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int a[4] = {1, 2, 3, 4};
int calls = 0;

int touch(void) {
  calls++;
  return 1;
}

int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < 4 && a[i] == 5) {
    reach_error();
  }
  if (!(i < 0 || i >= 4 || a[i] > 0)) {
    reach_error();
  }
  int zero = 0, one = 1;
  if (zero && touch()) {
  }
  if (one || touch()) {
  }
  if (calls != 0) {
    reach_error();
  }
  return 0;
}
