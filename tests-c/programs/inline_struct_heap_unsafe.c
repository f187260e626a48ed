// expect: unsafe
// Structs defined where objects of them are declared (a global pointer,
// a local pointer), each allocated on the heap. Their heap objects are
// made before the definitions are lowered; the check is wrong.
#include <stdlib.h>
extern void reach_error(void);
struct point {
  int x;
  int y;
} *origin;

int main(void) {
  struct pair {
    int first;
    int second;
  } *p = malloc(sizeof(struct pair));
  origin = malloc(sizeof(struct point));
  if (!p || !origin)
    return 0;
  p->first = 1;
  p->second = 2;
  origin->x = p->second;
  if (origin->x != 1)
    reach_error();
  free(p);
  free(origin);
  return 0;
}
