// expect: unsafe
// args: --no-races
// an assumption only restricts what comes after it: the error before it is still reachable
extern void abort(void);
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 100) {
    reach_error();
  }
  assume_abort_if_not(x <= 100);
  return 0;
}
