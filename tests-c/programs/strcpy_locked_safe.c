// expect: safe
// args: --no-races
// string: two threads strcpy different literals into a shared buffer under a mutex; each reader sees a whole string ("ab" or "cd", never a mix)
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
char buf[3];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *writer1(void *arg) {
  pthread_mutex_lock(&m);
  strcpy(buf, "ab");
  pthread_mutex_unlock(&m);
  return 0;
}
void *writer2(void *arg) {
  pthread_mutex_lock(&m);
  strcpy(buf, "cd");
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer1, 0);
  pthread_create(&t2, 0, writer2, 0);
  pthread_mutex_lock(&m);
  // Before any writer: all zero; after one: a whole string.
  if (buf[0] == 'a' && buf[1] != 'b') reach_error();
  if (buf[0] == 'c' && buf[1] != 'd') reach_error();
  if (buf[0] == 0 && buf[1] != 0) reach_error();
  pthread_mutex_unlock(&m);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (strlen(buf) != 2 || buf[2] != 0) reach_error();
  return 0;
}
