// expect: unknown
// args: --no-races
// true verdict: unsafe
// memory: memcpy between overlapping parts of one array (undefined behaviour; memmove is the function for that): the lowering gives up before copying
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
int a[6] = {1, 2, 3, 4, 5, 6};
void *worker(void *arg) {
  memcpy(a + 1, a, 3 * sizeof(int));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (a[1] == 1) reach_error();
  return 0;
}
