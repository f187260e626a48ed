// expect: safe
// args: --no-races
// an unsigned countdown with a nondet start: while (u > 0) u--; always ends at 0; steps == start
// invariant: u + steps == start, 0 <= u (unsigned, no wrap since u > 0 before u--)
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int start = __VERIFIER_nondet_uint();
  unsigned int u = start;
  unsigned int steps = 0;
  while (u > 0u) {
    u--;
    steps++;
  }
  if (u != 0u || steps != start) {
    reach_error();
  }
  return 0;
}
