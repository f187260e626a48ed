// expect: safe
// args: --no-races
// a function's locals are fresh on every call; a static local keeps its value across calls
extern void reach_error(void);

int fresh(void) {
  int loc = 0;
  loc++;
  return loc;
}

int counter(void) {
  static int s = 0;
  s++;
  return s;
}

int main(void) {
  int a = fresh();
  int b = fresh();
  if (a != 1 || b != 1) {
    reach_error();
  }
  int c = counter();
  int d = counter();
  if (c != 1 || d != 2) {
    reach_error();
  }
  return 0;
}
