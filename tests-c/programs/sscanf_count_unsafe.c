// expect: unsafe
// args: --no-races
// as sscanf_count_safe.c, but main assumes that a successful conversion keeps the old value: a parsed number may be anything
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
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (parsed == 2)
    assert(shared == 7);
  return 0;
}
