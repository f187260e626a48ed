// expect: unsafe
// args: --no-races
// classic bug: passing &i of the creating loop; the thread may read i after the loop has moved on
// interleaving: main creates all three threads and leaves the loop with i == 3; t[0] reads *p == 3
#include <pthread.h>
extern void reach_error(void);

void *worker(void *arg) {
  int *p = (int *)arg;
  int me = *p;
  if (me >= 3) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t t[3];
  int i, j;
  for (i = 0; i < 3; i++) {
    pthread_create(&t[i], 0, worker, &i);
  }
  for (j = 0; j < 3; j++) {
    pthread_join(t[j], 0);
  }
  return 0;
}
