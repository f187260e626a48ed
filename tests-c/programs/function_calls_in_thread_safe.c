// expect: safe
// args: --no-races
// functions called from a thread, nested calls and returned values; parameters are copies
#include <pthread.h>
#include <assert.h>

int result = 0;
int untouched = 0;

int add(int a, int b) { return a + b; }
int twice(int v) { return add(v, v); }
void bump_copy(int v) { v = v + 100; }
void bump_global(int *p) { *p = *p + 1; }

void *worker(void *arg) {
  int r = twice(add(1, 2));    // twice(3) == 6
  bump_copy(r);                // changes only its own copy
  bump_copy(untouched);
  bump_global(&result);
  result = result + r;         // 1 + 6
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(result == 7);
  assert(untouched == 0);
  return 0;
}
