// expect: safe
// args: --no-races
// the thread's void * argument is a pointer to a global; writes through it reach the global
#include <pthread.h>
#include <assert.h>

int g = 0;
int other = 0;

void *writer(void *arg) {
  int *p = (int *)arg;
  *p = 5;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, &g);
  pthread_join(t, 0);
  assert(g == 5);
  assert(other == 0);
  return 0;
}
