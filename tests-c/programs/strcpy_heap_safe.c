// expect: safe
// args: --no-races
// string: a worker strcpy's a literal into a calloc'd buffer, then copies it (strcpy from memory) into a second one (calloc: malloc's arbitrary contents make the search too large); main compares both with strcmp and strlen after the join
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
char *a, *b;
void *worker(void *arg) {
  strcpy(a, "xyz");
  strcpy(b, a);
  return 0;
}
int main(void) {
  pthread_t t;
  a = calloc(6, sizeof(char));
  b = calloc(4, sizeof(char));
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (strcmp(a, b) != 0) reach_error();
  if (strlen(b) != 3) reach_error();
  if (strcmp(b, "xyy") <= 0) reach_error();
  if (strcmp("xy", b) >= 0) reach_error();
  if (b[3] != 0) reach_error();
  return 0;
}
