// expect: safe
// timeout: 200
// 10000 workers started through an array of thread handles, each adding 1
// to a count under a mutex; one `int i`, declared before both loops, is
// the index of the create loop and then of the join loop (C89 style).
// Races and deadlocks are checked too. The runs the inference samples
// never leave the create loop: its candidates at the join loop include
// what the step past the create loop sets (`i` and the number of joins
// both 1), so `joined == i` is proposed there.
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t ids[10000];
  int i;
  for (i = 0; i < 10000; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (i = 0; i < 10000; i++) {
    pthread_join(ids[i], 0);
  }
  pthread_mutex_lock(&m);
  if (count != 10000) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}
