// expect: unsafe
// args: --races
// a race through a pointer: the writer stores to *p where p (its argument) points to the global x that the reader reads by name
// race: the writer about to store *p (that is x) while the reader is about to load x
#include <pthread.h>

int x = 0;
int seen;

void *writer(void *arg) {
  int *p = arg;
  *p = 1;
  return 0;
}

void *reader(void *arg) {
  seen = x;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer, &x);
  pthread_create(&t2, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
