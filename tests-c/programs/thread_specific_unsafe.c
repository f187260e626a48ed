// expect: unsafe
// args: --no-races
// a thread-specific data destructor runs when the worker returns, with the worker's non-NULL value
// error: the worker sets its value to 42 and returns; the destructor is called with 42 and its assertion fails
#include <pthread.h>
#include <assert.h>

pthread_key_t key;
int cleaned = 0;

void destructor(void *v) {
  assert((long)v != 42);
  cleaned = 1;
}

void *worker(void *arg) {
  pthread_setspecific(key, (void *)42);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_key_create(&key, destructor);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
