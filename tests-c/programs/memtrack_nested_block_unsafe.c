// expect: unsafe
// args: --property valid-memsafety
// A worker frees a record but not the buffer the record points to: the
// buffer is lost (valid-memtrack).
#include <pthread.h>
#include <stdlib.h>

struct record {
  int *data;
};

struct record *rec;

void *worker(void *arg) {
  free(rec);
  rec = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  rec = malloc(sizeof(struct record));
  rec->data = malloc(sizeof(int));
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
