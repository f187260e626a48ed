// expect: safe
// args: --no-races
// memory: a worker clears a shared int array with memset(a, 0, sizeof a) and fills a char buffer with '-' by memset; main checks every cell after the join
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
int a[4] = {1, 2, 3, 4};
char line[5];
void *worker(void *arg) {
  memset(a, 0, sizeof a);
  memset(line, '-', 4);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  for (int i = 0; i < 4; i++) {
    if (a[i] != 0) reach_error();
    if (line[i] != '-') reach_error();
  }
  if (line[4] != 0) reach_error();
  return 0;
}
