// expect: unknown
// args: --no-races
// true verdict: unsafe
// string: strcpy of "hello" (6 characters with the 0) into a char[4] writes beyond the buffer: undefined behaviour, the lowering gives up at the fifth write
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
char small[4];
int guard;
void *worker(void *arg) {
  strcpy(small, "hello");
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (small[0] == 'h') reach_error();
  return 0;
}
