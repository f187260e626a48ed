// expect: unsafe
// args: --no-races
// Message passing with CBMC's fences and ESBMC's yield as a weak-memory
// litmus test writes it. Under sequential consistency the fences do
// nothing and the flag protocol works; the bug is the reader's: it checks
// the data before it has seen the flag.
#include <assert.h>

void __CPROVER_fence(const char *, ...);
void __ESBMC_yield(void);

int data = 0, flag = 0;

void *writer(void *arg) {
  data = 42;
  __CPROVER_fence("WWfence", "WRfence");
  flag = 1;
  return 0;
}

void *reader(void *arg) {
  __ESBMC_yield();
  int d = data;
  int f = flag;
  if (f)
    assert(d == 42);
  return 0;
}

int main(void) {
__CPROVER_ASYNC_1:
  writer(0);
__CPROVER_ASYNC_2:
  reader(0);
  return 0;
}
