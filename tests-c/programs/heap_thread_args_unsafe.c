// expect: unsafe
// args: --no-races
// each worker gets its own malloc'd argument struct; main reads the first result before joining, so it can see the worker's write or not
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
    args[i] = malloc(sizeof(struct arg));
    args[i]->id = i + 1;
    args[i]->out = 0;
    pthread_create(&t[i], 0, worker, args[i]);
  }
  if (args[0]->out == 2) reach_error();
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return 0;
}
