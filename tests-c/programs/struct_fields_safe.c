// expect: safe
// args: --no-races
// a global struct with fields of different types; fields are separate variables; access via s.f and p->f
#include <assert.h>

struct rec {
  int a;
  int b;
  unsigned char c;
  int arr[2];
};

struct rec s;
struct rec t = {1, 2, 3, {4, 5}};

int main(void) {
  s.a = 1;
  s.b = 2;
  s.c = 255;
  s.c++;                       // wraps in its own field, does not touch s.b
  assert(s.a + s.b == 3);
  assert(s.c == 0);
  struct rec *p = &s;
  p->a = 7;
  p->arr[1] = 9;
  assert(s.a == 7 && s.b == 2 && s.arr[0] == 0 && s.arr[1] == 9);
  assert(t.a == 1 && t.b == 2 && t.c == 3 && t.arr[0] == 4 && t.arr[1] == 5);
  return 0;
}
