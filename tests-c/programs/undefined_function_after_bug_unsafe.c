// expect: unsafe
// args: --no-races
// A bug reachable before a call of a function without a body: the call does
// not hide it.
extern void abort(void);
void reach_error(void) { abort(); }
extern int __VERIFIER_nondet_int(void);
extern int lookup(int key);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 7) reach_error();
  return lookup(x);
}
