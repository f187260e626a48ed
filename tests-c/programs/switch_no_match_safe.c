// expect: safe
// args: --no-races
// a switch without default whose value matches no case does nothing; case labels inside a block
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  int hits = 0;
  switch (c) {
  case 'a':
    hits = 1;
    break;
  case 'b': {
    hits = 2;
    break;
  }
  case 300 - 256:               // 44, a constant expression
    hits = 3;
  }
  if (c != 'a' && c != 'b' && c != 44 && hits != 0) {
    reach_error();
  }
  if (c == 44 && hits != 3) {
    reach_error();
  }
  return 0;
}
