// expect: unsafe
// args: --property thread-safety
// A table guarded by a read-write lock: readers need it shared, writers
// exclusive. One writer takes only the read lock: two threads may then
// both hold it, and the write breaks `guarded_by`.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int table[2] __attribute__((guarded_by(rw)));

void *reader(void *arg) {
  pthread_rwlock_rdlock(&rw);
  int a = table[0] + table[1];
  pthread_rwlock_unlock(&rw);
  return (void *)(long)a;
}

void *writer(void *arg) {
  int i = __VERIFIER_nondet_int() ? 1 : 0;
  pthread_rwlock_rdlock(&rw);
  table[i] = 1;
  pthread_rwlock_unlock(&rw);
  return 0;
}

int main(void) {
  pthread_t r, w;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r, 0);
  pthread_join(w, 0);
  return 0;
}
