// Workers add to a tally; whether they take the mutex depends on the build's
// USE_LOCK (compile_commands.json defines it), found through its -I.
#include "tally.h"
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int tally = 0;

void *worker(void *arg) {
  ENTER(&m);
  int t = tally;
  tally = t + 1;
  LEAVE(&m);
  return 0;
}

int main(void) {
  pthread_t ids[WORKERS];
  for (int i = 0; i < WORKERS; i++)
    pthread_create(&ids[i], 0, worker, 0);
  for (int i = 0; i < WORKERS; i++)
    pthread_join(ids[i], 0);
  if (tally != WORKERS)
    reach_error();
  return 0;
}
