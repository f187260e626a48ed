// expect: unknown
// true verdict: unsafe
// args: --races
// two threads store different members of a shared union without a lock: their first bytes overlap, a race
// race: the worker is about to store u.flag while main is about to store u.count; the model does not tell whether two members' bytes overlap, so it answers unknown
#include <pthread.h>

union value { int count; char flag; };
union value u;

void *worker(void *arg) {
  u.flag = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  u.count = 2;
  pthread_join(t, 0);
  return 0;
}
