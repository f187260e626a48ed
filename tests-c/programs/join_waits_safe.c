// expect: safe
// args: --no-races
// pthread_join returns only after the thread has finished, so main sees its write
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
  pthread_join(t, 0);
  assert(x == 1);
  return 0;
}
