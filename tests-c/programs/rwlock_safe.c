// expect: safe
// args: --no-races
// two writers each add 2 to x in two steps under pthread_rwlock_wrlock; a reader under pthread_rwlock_rdlock never sees x odd
// invariant: while a writer holds the lock for writing no reader holds it, and x is even whenever the lock is free or read-locked
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x = 0;

void *writer(void *arg) {
  pthread_rwlock_wrlock(&rw);
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
