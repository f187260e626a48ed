// expect: unsafe
// a reader that upgrades its read lock to a write lock without releasing
// it first: the write lock waits for every reader to leave, itself included
#include <pthread.h>

pthread_rwlock_t rw;
int cache;

void *refresh(void *arg) {
  pthread_rwlock_rdlock(&rw);
  if (cache == 0) {
    pthread_rwlock_wrlock(&rw);
    cache = 1;
    pthread_rwlock_unlock(&rw);
  }
  pthread_rwlock_unlock(&rw);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_rwlock_init(&rw, 0);
  pthread_create(&t, 0, refresh, 0);
  pthread_join(t, 0);
  return 0;
}
