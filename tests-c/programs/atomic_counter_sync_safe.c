// expect: safe
// args: --no-races
// two threads increment a counter with GCC's __sync_fetch_and_add; the old values they get differ and the sum is 2
// invariant: each __sync_fetch_and_add is one indivisible step, so the threads see 0 and 1 in some order
#include <pthread.h>
#include <assert.h>

int counter = 0;
int seen[2];

void *worker(void *arg) {
  int id = (int)arg;
  seen[id] = __sync_fetch_and_add(&counter, 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, (void *)0);
  pthread_create(&t2, 0, worker, (void *)1);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 2);
  assert(seen[0] + seen[1] == 1);
  return 0;
}
