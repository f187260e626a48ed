// expect: safe
// args: --no-races
// a nondet unsigned char lies in [0, 255], a nondet char in [-128, 127], a nondet short in [-32768, 32767]
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern char __VERIFIER_nondet_char(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned short __VERIFIER_nondet_ushort(void);

int main(void) {
  unsigned char u = __VERIFIER_nondet_uchar();
  int x = u;
  if (x > 255 || x < 0) {
    reach_error();
  }
  char c = __VERIFIER_nondet_char();
  int y = c;
  if (y > 127 || y < -128) {
    reach_error();
  }
  short s = __VERIFIER_nondet_short();
  int z = s;
  if (z > 32767 || z < -32768) {
    reach_error();
  }
  unsigned short us = __VERIFIER_nondet_ushort();
  int w = us;
  if (w > 65535 || w < 0) {
    reach_error();
  }
  return 0;
}
