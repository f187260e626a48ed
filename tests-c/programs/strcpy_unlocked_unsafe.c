// expect: unsafe
// args: --no-races
// string: two threads strcpy "ab" and "cd" into a shared buffer without a lock: the copies interleave cell by cell, so main can find "ad" after the joins
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
char buf[3];
void *writer1(void *arg) {
  strcpy(buf, "ab");
  return 0;
}
void *writer2(void *arg) {
  strcpy(buf, "cd");
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer1, 0);
  pthread_create(&t2, 0, writer2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  // writer1 writes 'a', writer2 writes 'c' then 'd', writer1 writes 'b': "cb";
  // or writer2's 'c', writer1's 'a' and 'b', writer2's 'd': "ad".
  if (buf[0] == 'a' && buf[1] != 'b') reach_error();
  if (buf[0] == 'c' && buf[1] != 'd') reach_error();
  return 0;
}
