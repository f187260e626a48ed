// expect: safe
// args: --no-races --no-deadlocks
// workers started through an array of thread handles, each marking its own
// slot done; joining ids[k] waits for exactly the thread stored there
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int done[4];

void *worker(void *arg) {
  int k = (int)(long)arg;
  done[k] = 1;
  return 0;
}

int main(void) {
  pthread_t ids[4];
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 3) {
    return 0;
  }
  for (int i = 0; i < n; i++) {
    pthread_create(&ids[i], 0, worker, (void *)(long)i);
  }
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= n) {
    return 0;
  }
  pthread_join(ids[k], 0);
  if (done[k] != 1) {
    reach_error();
  }
  return 0;
}
