// expect: unsafe
// args: --no-races
// a pointer that points to one of two globals depending on a nondet choice
// with c != 0, p = &a and the write makes a == 1
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int a = 0, b = 0;

int main(void) {
  int c = __VERIFIER_nondet_int();
  int *p;
  if (c) {
    p = &a;
  } else {
    p = &b;
  }
  *p = 1;
  if (a + b != 1) {
    reach_error();   // never: exactly one of them was written
  }
  if (a == 1) {
    reach_error();   // reachable
  }
  return 0;
}
