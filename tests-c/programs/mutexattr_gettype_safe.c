// expect: safe
// pthread_mutexattr_gettype reads back the type pthread_mutexattr_settype
// gave (and the default type of an attribute that was given none); the
// error-checking mutex made from it reports a relock with EDEADLK
#include <pthread.h>
#include <errno.h>
extern void reach_error(void);

pthread_mutex_t m;
int kind_seen, default_kind;

void *worker(void *arg) {
  if (pthread_mutex_lock(&m) != 0) reach_error();
  if (pthread_mutex_lock(&m) != EDEADLK) reach_error();
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_mutexattr_t at, plain;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutexattr_gettype(&at, &kind_seen);
  if (kind_seen != PTHREAD_MUTEX_ERRORCHECK) reach_error();
  pthread_mutexattr_init(&plain);
  pthread_mutexattr_gettype(&plain, &default_kind);
  if (default_kind != PTHREAD_MUTEX_DEFAULT) reach_error();
  pthread_mutex_init(&m, &at);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
