// expect: safe
// args: --no-races --no-deadlocks
// timeout: 30
// Six workers, each given the address of its own slot of an array of
// indices, compute a value in a loop of their own and store it at their
// index; main joins them in order and adds the results. Proved by the
// partial-order reduced search: the workers' loop steps touch only their
// own variables (main's join tests only their end), and once a worker has
// read its index the branches that would store at another index are dead.
// (The full search, for a certificate, does not end in time.)
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
  res[id] = local;
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
