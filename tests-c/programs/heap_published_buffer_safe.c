// expect: safe
// args: --no-races
// one thread allocates a buffer and publishes its address, a second fills it through the published pointer, main reads it after joining both: uninitialised heap contents are never seen
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
  pthread_join(f, 0);
  if (buf && (buf[0] != 'a' || buf[3] != 'd')) reach_error();
  return 0;
}
