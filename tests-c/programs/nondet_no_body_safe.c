// expect: safe
// args: --no-races
// CBMC-style inputs: nondet_uchar() declared without a body returns any value of its type (0 to 255), nondet_int() any int
// invariant: an unsigned char is at most 255 and a _Bool is 0 or 1
unsigned char nondet_uchar(void);
_Bool nondet_bool(void);
int nondet_int(void);
void reach_error(void);

int main(void) {
  unsigned char c = nondet_uchar();
  _Bool b = nondet_bool();
  int i = nondet_int();
  int bi = b;
  if (c > 255 || bi > 1)
    reach_error();
  if (i > 10 && i < 5)
    reach_error();
  return 0;
}
