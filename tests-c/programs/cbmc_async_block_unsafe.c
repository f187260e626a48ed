// expect: unsafe
// args: --no-races
// CBMC's `__CPROVER_ASYNC_n:` on a block that updates main's local
// `total` without an atomic section: main's update may be lost between
// the block's read and write.
#include <assert.h>

int done;

int main(void) {
  int total = 0;
  int step = 2;
__CPROVER_ASYNC_1: {
    int t = total;
    total = t + step;
    done = 1;
  }
  __CPROVER_atomic_begin();
  total += 1;
  __CPROVER_atomic_end();
  __CPROVER_assume(done == 1);
  assert(total == 3);
  return 0;
}
