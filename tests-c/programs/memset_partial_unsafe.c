// expect: unsafe
// args: --no-races
// memory: memset(a, 0, 2 * sizeof(int)) clears only the first two of four ints, so a[3] is still 4 after the join
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
int a[4] = {1, 2, 3, 4};
void *worker(void *arg) {
  memset(a, 0, 2 * sizeof(int));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (a[1] != 0) reach_error(); // never
  if (a[3] != 0) reach_error(); // reached
  return 0;
}
