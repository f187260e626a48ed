// expect: safe
// args: --no-races
// each thread of a loop-created array gets &ids[i] as its argument and marks done[its id]
// invariant: ids[i] == i is written before thread i is created and never changed
#include <pthread.h>
extern void reach_error(void);

int ids[3];
int done[3];

void *worker(void *arg) {
  int *p = (int *)arg;
  int me = *p;
  done[me] = 1;
  return 0;
}

int main(void) {
  pthread_t t[3];
  int i;
  for (i = 0; i < 3; i++) {
    ids[i] = i;
    pthread_create(&t[i], 0, worker, &ids[i]);
  }
  for (i = 0; i < 3; i++) {
    pthread_join(t[i], 0);
  }
  if (done[0] != 1 || done[1] != 1 || done[2] != 1) {
    reach_error();
  }
  return 0;
}
