// expect: safe
// args: --no-races
// for with continue, do-while with break, while (1) with break
#include <assert.h>

int main(void) {
  int i, evens = 0;
  for (i = 0; i < 10; i++) {
    if (i % 2 != 0) {
      continue;               // continue in for still runs i++
    }
    evens++;
  }
  assert(evens == 5 && i == 10);

  int j = 0;
  do {
    j++;
    if (j == 7) {
      break;
    }
  } while (j < 100);
  assert(j == 7);

  int k = 0;
  while (1) {
    k++;
    if (k >= 3) {
      break;
    }
  }
  assert(k == 3);
  return 0;
}
