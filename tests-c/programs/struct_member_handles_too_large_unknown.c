// expect: unknown
// A pool of 10000 thread handles kept in a struct member: the struct is
// too large to flatten into cells (arrays of thread handles have no cells
// only as variables of their own). Its definition is refused, and every
// use of the struct says so (it once read "no field `th`").
#include <pthread.h>
extern void reach_error(void);

#define N 10000
struct pool {
  pthread_t th[N];
  int started;
};
struct pool pool;

void *worker(void *arg) { return 0; }

int main(void) {
  for (int i = 0; i < N; i++)
    pthread_create(&pool.th[i], 0, worker, 0);
  for (int i = 0; i < N; i++)
    pthread_join(pool.th[i], 0);
  return 0;
}
