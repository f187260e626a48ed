// expect: safe
// C11 threads: two workers call_once the same initialiser; it runs once, and
// both see its effect after call_once returns.
#include <threads.h>
#include <assert.h>

once_flag flag = ONCE_FLAG_INIT;
int inits, value;

void init(void) {
  inits++;
  value = 5;
}

int worker(void *arg) {
  call_once(&flag, init);
  assert(value == 5);
  return 0;
}

int main(void) {
  thrd_t t1, t2;
  thrd_create(&t1, worker, 0);
  thrd_create(&t2, worker, 0);
  thrd_join(t1, 0);
  thrd_join(t2, 0);
  assert(inits == 1);
  return 0;
}
