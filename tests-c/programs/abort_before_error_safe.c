// expect: safe
// args: --no-races
// abort() stops the program without an error, so the code after it is unreachable
extern void abort(void);
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x != 5) {
    abort();
  }
  if (x != 5) {
    reach_error();
  }
  abort();
  reach_error();
  return 0;
}
