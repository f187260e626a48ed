// expect: unsafe
// args: --no-races
// cbmc_async_safe.c without the atomic section: main can see the worker's half-done update
// error: the worker adds 1, main reads x == 1 and the first __CPROVER_assert fails
int x = 0;
int done = 0;

void worker(int step) {
  x = x + step;
  x = x + step;
  done = 1;
}

int main(void) {
  __CPROVER_ASYNC_1: worker(1);
  int seen = x;
  __CPROVER_assert(seen != 1, "x is never odd");
  __CPROVER_assume(done == 1);
  __CPROVER_assert(x == 2, "the worker finished");
  return 0;
}
