// expect: unknown
// args: --no-races
// A function without a body that every execution calls: what it does is not
// modelled, so the answer is unknown, with the call in the reason.
extern void abort(void);
void reach_error(void) { abort(); }
extern int lookup(int key);

int main(void) {
  int x = lookup(1);
  if (x != 1) reach_error();
  return 0;
}
