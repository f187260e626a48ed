// expect: unsafe
// args: --no-races
// converting a negative int to unsigned int adds 2^32: (unsigned)-1 == 4294967295
extern void reach_error(void);

int main(void) {
  int i = -1;
  unsigned int u = i;
  if (u == 4294967295u) {
    reach_error();
  }
  return 0;
}
