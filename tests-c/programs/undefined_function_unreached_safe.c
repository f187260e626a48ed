// expect: safe
// args: --no-races
// A function declared without a body (an external library call) on a path
// no execution takes: the program is checked as usual.
extern void abort(void);
void reach_error(void) { abort(); }
extern int lookup(int key);
int flag = 0;

int main(void) {
  int x = 1;
  if (flag) {
    x = lookup(x);
  }
  if (x != 1) reach_error();
  return 0;
}
