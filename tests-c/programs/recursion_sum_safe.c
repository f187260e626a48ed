// expect: safe
// Recursion is unrolled (up to 8 activations of a function): two workers
// each add sum(4) = 10 under a mutex, one of them through a function
// pointer, and a tree recursion fib(5) = 5 is computed by main.
#include <assert.h>
#include <pthread.h>

int total = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int sum(int n) {
  if (n == 0)
    return 0;
  return n + sum(n - 1);
}

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int (*by_pointer)(int) = sum;

void *worker(void *arg) {
  int s = arg ? by_pointer(4) : sum(4);
  pthread_mutex_lock(&m);
  total += s;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, (void *)1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 20);
  assert(fib(5) == 5);
  return 0;
}
