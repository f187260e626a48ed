// expect: safe
// args: --no-races
// sscanf of a string the verifier does not model: it returns how many conversions succeeded (or EOF), and only those targets change; a worker publishes the first number only when both were read and it is in range
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

char input[32];
int a = 7, b = 8, parsed;
int shared = -1;

void *worker(void *arg) {
  if (parsed == 2 && a >= 0 && a < 100)
    shared = a;
  return 0;
}

int main(void) {
  pthread_t t;
  parsed = sscanf(input, "%d,%x", &a, &b);
  assert(parsed >= -1 && parsed <= 2);
  if (parsed < 2)
    assert(b == 8);
  if (parsed < 1)
    assert(a == 7);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(shared < 100);
  return 0;
}
