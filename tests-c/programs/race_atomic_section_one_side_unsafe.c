// expect: unsafe
// args: --races
// race_atomic_section_safe.c with the atomic section in one thread only: an atomic write and a plain read of the same int race
// race: atomic_writer about to run its section (which stores total) while plain_reader is about to load total
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int total = 0;
int seen;

void *atomic_writer(void *arg) {
  __VERIFIER_atomic_begin();
  int t = total;
  total = t + 1;
  __VERIFIER_atomic_end();
  return 0;
}

void *plain_reader(void *arg) {
  seen = total;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, atomic_writer, 0);
  pthread_create(&t2, 0, plain_reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
