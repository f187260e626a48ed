// expect: safe
// args: --no-races
// a CBMC-style harness: __CPROVER_ASYNC_1 spawns a thread, __CPROVER_atomic_begin/end make its update indivisible, __CPROVER_assume and __CPROVER_assert
// invariant: x is 0 or 2, never 1: the worker's two increments happen in one atomic section, and main's reads are single loads
int x = 0;
int done = 0;

void worker(int step) {
  __CPROVER_atomic_begin();
  x = x + step;
  x = x + step;
  done = 1;
  __CPROVER_atomic_end();
}

int main(void) {
  __CPROVER_ASYNC_1: worker(1);
  __CPROVER_atomic_begin();
  int seen = x;
  __CPROVER_atomic_end();
  __CPROVER_assert(seen != 1, "x is never odd");
  __CPROVER_atomic_begin();
  int finished = done;
  int last = x;
  __CPROVER_atomic_end();
  __CPROVER_assume(finished == 1);
  __CPROVER_assert(last == 2, "the worker finished");
  return 0;
}
