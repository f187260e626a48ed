// expect: safe
// args: --no-races
// String literals are char arrays: the message of `assert(p && "msg")` is a
// non-null pointer, a literal's characters can be read, and two threads
// reading the same literal do not race.
#include <assert.h>
#include <pthread.h>

const char *greeting = "hi!";
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
  assert(seen == 'i' && greeting[2] == '!' && greeting[3] == 0);
  return 0;
}
