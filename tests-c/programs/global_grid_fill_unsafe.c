// expect: unsafe
// A worker fills the rows of a two-dimensional global array below an
// input count; main checks a row one past them, which is still zero.
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int grid[2000][4];
int n;

void *worker(void *arg) {
  for (int r = 0; r < n; r++) {
    grid[r][1] = r;
    grid[r][2] = r + 1;
  }
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  if (n < 1 || n > 2000)
    return 0;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j <= n && j < 2000 && grid[j][2] != grid[j][1] + 1)
    reach_error();
  return 0;
}
