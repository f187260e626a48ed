// expect: safe
// args: --no-races
// pthread_key thread-specific data: main and a worker each store their own value under one key and read back their own
// invariant: pthread_getspecific returns the calling thread's value, NULL until that thread sets it
#include <pthread.h>
#include <assert.h>

pthread_key_t key;

void *worker(void *arg) {
  assert(pthread_getspecific(key) == 0);
  pthread_setspecific(key, (void *)7);
  assert((long)pthread_getspecific(key) == 7);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_key_create(&key, 0);
  pthread_setspecific(key, (void *)3);
  pthread_create(&t, 0, worker, 0);
  assert((long)pthread_getspecific(key) == 3);
  pthread_join(t, 0);
  assert((long)pthread_getspecific(key) == 3);
  pthread_key_delete(key);
  return 0;
}
