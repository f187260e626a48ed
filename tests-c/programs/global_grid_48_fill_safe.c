// expect: safe
// args: --no-races --no-deadlocks
// A worker fills a global 48 x 48 grid (2304 cells, a variable per cell)
// row by row; main joins it and checks every cell. An access by two
// varying indices splits into a case per cell: once refused above 2048
// cases ("array access splits into too many cases").
#include <pthread.h>
extern void reach_error(void);

int g[48][48];

void *worker(void *arg) {
  for (int r = 0; r < 48; r++)
    for (int c = 0; c < 48; c++)
      g[r][c] = r + c + 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  for (int r = 0; r < 48; r++)
    for (int c = 0; c < 48; c++)
      if (g[r][c] != r + c + 1)
        reach_error();
  return 0;
}
