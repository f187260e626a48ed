// expect: unsafe
// args: --no-races
// string_literal_safe.c with a wrong claim about the literal: its character
// at index 1 is 'i', not 'h'.
#include <assert.h>
#include <pthread.h>

int seen;

void *worker(void *arg) {
  const char *s = "hi!";
  assert(arg == 0 && "the worker gets no argument");
  __atomic_store_n(&seen, s[1], __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(seen == 'h');
  return 0;
}
