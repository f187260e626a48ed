// expect: unsafe
// args: --no-races
// rwlock_safe.c with the writers taking the lock for reading: readers share it, so the reader sees a half-done update
// error: a writer adds 1 under its read lock, the reader takes the read lock too and sees x == 1
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x = 0;

void *writer(void *arg) {
  pthread_rwlock_rdlock(&rw);
  x = x + 1;
  x = x + 1;
  pthread_rwlock_unlock(&rw);
  return 0;
}

void *reader(void *arg) {
  pthread_rwlock_rdlock(&rw);
  int v = x;
  assert(v % 2 == 0);
  pthread_rwlock_unlock(&rw);
  return 0;
}

int main(void) {
  pthread_t w1, w2, r;
  pthread_create(&w1, 0, writer, 0);
  pthread_create(&w2, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w1, 0);
  pthread_join(w2, 0);
  pthread_join(r, 0);
  assert(x == 4);
  return 0;
}
