// expect: safe
// args: --no-races
// string: strncpy(buf, "ab", 5) copies two characters and pads the other three cells with 0; strncpy(d, "abcdef", 3) copies three and adds no terminator; bzero clears
#include <pthread.h>
#include <string.h>
#include <strings.h>
extern void reach_error(void);
char buf[6] = "xxxxx";
char d[4] = "zzz";
void *worker(void *arg) {
  strncpy(buf, "ab", 5);
  strncpy(d, "abcdef", 3);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (buf[1] != 'b' || buf[2] != 0 || buf[4] != 0) reach_error();
  if (d[2] != 'c' || d[3] != 0) reach_error();
  bzero(d, 2);
  if (d[0] != 0 || d[1] != 0 || d[2] != 'c') reach_error();
  return 0;
}
