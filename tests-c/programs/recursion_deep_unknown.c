// expect: unknown
// true verdict: safe
// Recursion is unrolled up to 8 activations of a function: a call chain
// deeper than that gives up where an execution reaches it, and the answer
// says so.
#include <assert.h>
#include <pthread.h>

int count(int n) { return n == 0 ? 0 : 1 + count(n - 1); }

int result = 0;

void *worker(void *arg) {
  result = count(20);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(result == 20);
  return 0;
}
