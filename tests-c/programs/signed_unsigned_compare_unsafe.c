// expect: unsafe
// args: --no-races
// usual arithmetic conversions: -1 > 1u is true because -1 converts to UINT_MAX
extern void reach_error(void);

int main(void) {
  int i = -1;
  unsigned int u = 1u;
  if (i > u) {
    reach_error();
  }
  return 0;
}
