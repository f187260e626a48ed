// expect: unknown
// true verdict: unsafe
// args: --no-races
// Type punning through a union: the bytes of the int member read as the
// char array member (1 in the first byte on every little-endian target).
// The model does not keep bytes: the read gives up where it is reached.
#include <assert.h>
#include <pthread.h>

union word { int i; unsigned char b[4]; };
union word w;

void *writer(void *arg) {
  w.i = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  assert(w.b[0] == 0);
  return 0;
}
