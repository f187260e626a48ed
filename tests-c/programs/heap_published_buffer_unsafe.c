// expect: unsafe
// args: --no-races
// one thread allocates a buffer and publishes its address, a second fills it through the published pointer, but main does not wait for the filler: it can read the uninitialised heap contents
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
char *buf;
void *alloc(void *arg) {
  buf = malloc(4 * sizeof(char));
  return 0;
}
void *fill(void *arg) {
  if (buf) {
    for (int i = 0; i < 4; i++) buf[i] = 'a' + i;
  }
  return 0;
}
int main(void) {
  pthread_t a, f;
  pthread_create(&a, 0, alloc, 0);
  pthread_join(a, 0);
  pthread_create(&f, 0, fill, 0);
  if (buf && (buf[0] != 'a' || buf[3] != 'd')) reach_error();
  pthread_join(f, 0);
  return 0;
}
