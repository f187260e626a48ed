// expect: unsafe
// args: --no-races
// mutex_errorcheck_safe.c's relock checked for success: an error-checking mutex returns EDEADLK instead
// error: main locks m, locks it again and gets EDEADLK, so the assertion that the lock succeeded fails
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  pthread_mutex_lock(&m);
  assert(pthread_mutex_lock(&m) == 0);
  return 0;
}
