// expect: unsafe
// args: --no-races
// (x > 0 || y > 0) holds with x <= 0 when y > 0; the right operand of && is called when x > 0
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int calls = 0;
int touch(void) { calls++; return 0; }

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x > 0 && touch()) {
    reach_error();        // never: touch returns 0
  }
  if (calls == 1 && x <= 0) {
    reach_error();        // never: touch was called only if x > 0
  }
  if (x > 0 || y > 0) {
    if (x <= 0) {
      reach_error();      // reachable: x == 0, y == 1
    }
  }
  return 0;
}
