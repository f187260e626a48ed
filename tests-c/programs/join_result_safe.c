// expect: safe
// args: --no-races
// pthread_join with a result pointer receives the start routine's return value or the value passed to pthread_exit
// invariant: worker 1 returns its argument plus 1 (11), worker 2 exits with 20 before its return
#include <pthread.h>
#include <assert.h>

void *adder(void *arg) {
  long v = (long)arg;
  return (void *)(v + 1);
}

void *exiter(void *arg) {
  pthread_exit((void *)20);
  return (void *)0;
}

int main(void) {
  pthread_t t1, t2;
  void *r1;
  long r2;
  pthread_create(&t1, 0, adder, (void *)10);
  pthread_create(&t2, 0, exiter, 0);
  pthread_join(t1, &r1);
  pthread_join(t2, (void **)&r2);
  assert((long)r1 == 11);
  assert(r2 == 20);
  return 0;
}
