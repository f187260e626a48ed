// expect: unsafe
// args: --no-races
// as heap_buffer_chunks_safe.c, but a worker claims a chunk when one element is left: it writes past the length (the assertion before the store fails)
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int *data;
int len;
int next;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int c = 0, end = 0;
  pthread_mutex_lock(&m);
  if (next + 1 <= len) {
    c = next;
    next = end = next + 2;
  }
  pthread_mutex_unlock(&m);
  while (c < end) {
    assert(0 <= c && c < len);
    data[c] = 1;
    c = c + 1;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  len = __VERIFIER_nondet_int();
  __VERIFIER_assume(len > 0 && len < 6);
  data = malloc(sizeof(int) * len);
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  free(data);
  return 0;
}
