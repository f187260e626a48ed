// expect: safe
// args: --no-races
// each worker gets its own calloc'd argument struct (id, result); after the joins main finds both results, and the struct starts zeroed
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
struct arg { int id; int out; };
void *worker(void *p) {
  struct arg *a = p;
  a->out = a->id * 2;
  return 0;
}
int main(void) {
  pthread_t t[2];
  struct arg *args[2];
  for (int i = 0; i < 2; i++) {
    args[i] = calloc(1, sizeof(struct arg));
    if (args[i]->out != 0) reach_error();
    args[i]->id = i + 1;
    pthread_create(&t[i], 0, worker, args[i]);
  }
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  if (args[0]->out != 2 || args[1]->out != 4) reach_error();
  if (args[0] == args[1]) reach_error();
  free(args[0]);
  free(args[1]);
  return 0;
}
