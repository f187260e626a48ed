// expect: safe
// args: --no-races
// a loop written with goto and labels, plus a forward goto out of nested loops
#include <assert.h>

int main(void) {
  int i = 0;
loop:
  if (i >= 10) {
    goto done;
  }
  i++;
  goto loop;
done:
  assert(i == 10);

  int found = -1;
  int r, c;
  for (r = 0; r < 3; r++) {
    for (c = 0; c < 3; c++) {
      if (r + c == 3) {
        found = r;
        goto out;
      }
    }
  }
out:
  assert(found == 1 && r == 1 && c == 2);
  return 0;
}
