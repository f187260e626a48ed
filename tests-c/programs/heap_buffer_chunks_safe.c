// expect: safe
// args: --no-races
// workers claim chunks of a heap buffer whose length is an input, under a lock, and fill them; every index they write lies within the buffer (nothing reads the buffer: only the bounds matter)
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
  if (next + 2 <= len) {
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
