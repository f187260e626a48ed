// expect: safe
// args: --no-races
// CBMC's `__CPROVER_ASYNC_n:` on a block: the block runs as a thread
// that sees main's locals in scope. Both threads update main's local
// `total` inside atomic sections, and main waits for the block's flag.
#include <assert.h>

int done;

int main(void) {
  int total = 0;
  int step = 2;
__CPROVER_ASYNC_1: {
    __CPROVER_atomic_begin();
    total += step;
    __CPROVER_atomic_end();
    done = 1;
  }
  __CPROVER_atomic_begin();
  total += 1;
  __CPROVER_atomic_end();
  __CPROVER_assume(done == 1);
  assert(total == 3);
  return 0;
}
