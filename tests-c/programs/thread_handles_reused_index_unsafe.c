// expect: unsafe
// One `int i` is the index of the create loop and of the join loop, which
// stops one short: the last worker may not have added to the count yet
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
  pthread_t ids[3];
  int i;
  for (i = 0; i < 3; i++) {
    pthread_create(&ids[i], 0, worker, 0);
  }
  for (i = 0; i < 2; i++) {
    pthread_join(ids[i], 0);
  }
  pthread_mutex_lock(&m);
  if (count != 3) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}
