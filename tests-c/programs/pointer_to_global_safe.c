// expect: safe
// args: --no-races
// pointers to globals: int *p = &g; *p = 1; reads and writes through p, and a pointer to an array element
#include <assert.h>

int g = 0;
int h = 10;
int arr[3];

int main(void) {
  int *p = &g;
  *p = 1;
  assert(g == 1);
  p = &h;
  *p = *p + 1;
  assert(h == 11 && g == 1);
  int *q = &arr[1];
  *q = 7;
  assert(arr[0] == 0 && arr[1] == 7 && arr[2] == 0);
  if (g) {
    p = &arr[2];
  }
  *p = 9;
  assert(arr[2] == 9 && h == 11);
  return 0;
}
