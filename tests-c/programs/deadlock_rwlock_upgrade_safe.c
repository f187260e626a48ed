// expect: safe
// the reader releases its read lock before it takes the write lock, and
// re-tests the condition under the write lock
#include <pthread.h>

pthread_rwlock_t rw;
int cache;

void *refresh(void *arg) {
  pthread_rwlock_rdlock(&rw);
  int stale = cache == 0;
  pthread_rwlock_unlock(&rw);
  if (stale) {
    pthread_rwlock_wrlock(&rw);
    if (cache == 0)
      cache = 1;
    pthread_rwlock_unlock(&rw);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_rwlock_init(&rw, 0);
  pthread_create(&t1, 0, refresh, 0);
  pthread_create(&t2, 0, refresh, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
