// expect: safe
// args: --races
// the right operand of || is not evaluated when the left one holds: its read of g is no access, so the unprotected write does not race with it (found by the reduction differential, seed 1000596)
#include <pthread.h>

int g = 0;

void *writer(void *arg) {
  g = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  int l = 0;
  pthread_create(&t, 0, writer, 0);
  if (l != 5 || g <= 3)
    l = 1;
  pthread_join(t, 0);
  return l - 1;
}
