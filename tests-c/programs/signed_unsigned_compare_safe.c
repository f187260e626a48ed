// expect: safe
// args: --no-races
// usual arithmetic conversions: in -1 < 1u the -1 becomes 4294967295u, so the test is false
extern void reach_error(void);

int main(void) {
  int i = -1;
  unsigned int u = 1u;
  if (i < u) {
    reach_error();
  }
  long long w = -1;          // long long holds every unsigned int, so this compare is signed
  if (!(w < u)) {
    reach_error();
  }
  return 0;
}
