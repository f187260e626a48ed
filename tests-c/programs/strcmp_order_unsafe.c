// expect: unsafe
// args: --no-races
// string: after a worker strcpy's "hello", strcmp orders it after "hell" and before "help" (unsigned char comparison) and equal to "hello"; the final check on strlen is reachable
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
char word[8];
void *worker(void *arg) {
  strcpy(word, "hello");
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (strcmp(word, "help") > 0) reach_error(); // never: 'l' < 'p'
  if (strcmp(word, "hell") <= 0) reach_error(); // never: "hell" is a prefix
  if (strcmp(word, "hello") != 0) reach_error(); // never
  if (strlen(word) == 5) reach_error(); // reached
  return 0;
}
