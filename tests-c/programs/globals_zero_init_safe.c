// expect: safe
// args: --no-races
// globals without initialiser (scalars, arrays, struct fields) start at 0; initialised ones at their value
#include <assert.h>

int z;
unsigned char uc;
int arr[4];
struct point { int x; int y; } pt;
int five = 5;
int tab[3] = {7, 8};

int main(void) {
  assert(z == 0);
  assert(uc == 0);
  assert(arr[0] == 0 && arr[3] == 0);
  assert(pt.x == 0 && pt.y == 0);
  assert(five == 5);
  assert(tab[0] == 7 && tab[1] == 8 && tab[2] == 0);
  return 0;
}
