// expect: unsafe
// args: --no-races
// without pthread_join main may check before the thread has run
// interleaving: main creates t, main asserts x == 1 while x is still 0
#include <pthread.h>
#include <assert.h>

int x = 0;

void *setter(void *arg) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  assert(x == 1);
  return 0;
}
