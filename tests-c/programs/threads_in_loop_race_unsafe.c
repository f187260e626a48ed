// expect: unsafe
// args: --no-races
// identical workers started in a loop of 10000 iterations, a check-then-act without a mutex: two instances break it
// interleaving: worker#1 and worker#2 both see busy == 0, both enter, inside == 2
#include <pthread.h>
extern void reach_error(void);

int busy = 0;
int inside = 0;

void *worker(void *arg) {
  if (busy == 0) {
    busy = 1;
    inside = inside + 1;
    if (inside != 1) {
      reach_error();
    }
    inside = inside - 1;
    busy = 0;
  }
  return 0;
}

int main(void) {
  pthread_t t;
  for (int i = 0; i < 10000; i++) {
    pthread_create(&t, 0, worker, 0);
  }
  return 0;
}
