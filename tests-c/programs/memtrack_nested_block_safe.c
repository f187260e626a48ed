// expect: safe
// args: --property valid-memsafety
// A worker frees a record's buffer, then the record.
#include <pthread.h>
#include <stdlib.h>

struct record {
  int *data;
};

struct record *rec;

void *worker(void *arg) {
  free(rec->data);
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
