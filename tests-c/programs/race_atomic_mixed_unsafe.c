// expect: unsafe
// args: --races
// one thread writes a plain int with an ordinary store, the other reads it with __atomic_load_n: one access is not atomic, so they race
// race: writer about to store flag while reader is about to do its atomic load of flag
#include <pthread.h>

int flag = 0;
int seen;

void *writer(void *arg) {
  flag = 1;
  return 0;
}

void *reader(void *arg) {
  seen = __atomic_load_n(&flag, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
