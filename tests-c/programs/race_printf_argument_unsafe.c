// expect: unsafe
// args: --races
// A writer holds only a read lock of the rwlock while main, also under a read
// lock, reads data1 only as an argument of printf: read locks do not exclude
// each other, so the write and printf's read race.
#include <pthread.h>
#include <stdio.h>

pthread_rwlock_t rw;
int data1;

void *writer(void *arg) {
  pthread_rwlock_rdlock(&rw);
  data1 = 1;
  pthread_rwlock_unlock(&rw);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_rwlock_init(&rw, 0);
  pthread_create(&t, 0, writer, 0);
  pthread_rwlock_rdlock(&rw);
  printf("%d\n", data1);
  pthread_rwlock_unlock(&rw);
  pthread_join(t, 0);
  return 0;
}
