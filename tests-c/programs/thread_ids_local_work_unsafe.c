// expect: unsafe
// args: --no-races --no-deadlocks
// timeout: 30
// Six workers, each given the address of its own slot of an array of
// indices, compute a value in a loop of their own and store it at their
// index, the fourth one more than the others: the sum is not 10 * N.
#include <pthread.h>
extern void reach_error(void);
#define N 6
int ID[N];
int res[N];

void *worker(void *arg) {
  int id = *(int *)arg;
  int local = 0;
  for (int j = 0; j < 5; j++) {
    local = local + j;
  }
  res[id] = id == 3 ? local + 1 : local;
  return 0;
}

int main(void) {
  pthread_t th[N];
  for (int i = 0; i < N; i++) {
    ID[i] = i;
    pthread_create(&th[i], 0, worker, &ID[i]);
  }
  int total = 0;
  for (int i = 0; i < N; i++) {
    pthread_join(th[i], 0);
    total += res[i];
  }
  if (total != 10 * N) {
    reach_error();
  }
  return 0;
}
