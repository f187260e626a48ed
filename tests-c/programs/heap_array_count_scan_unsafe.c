// expect: unsafe
// A worker counts the zero elements of a zeroed heap array of an input
// length (`zeros++` on a shared counter); main joins it and checks the
// count against the length: every element is zero, so the count is the
// length, and the check fails for a length above 2.
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int *cells;
int len;
int zeros;

void *count(void *arg) {
  for (int i = 0; i < len; i++)
    if (cells[i] == 0)
      zeros++;
  return 0;
}

int main(void) {
  pthread_t t;
  len = __VERIFIER_nondet_int();
  if (len < 0 || len > 100000)
    return 0;
  cells = calloc(len, sizeof(int));
  pthread_create(&t, 0, count, 0);
  pthread_join(t, 0);
  if (zeros == len && len > 2)
    reach_error();
  free(cells);
  return 0;
}
