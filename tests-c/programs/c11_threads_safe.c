// expect: safe
// args: --no-races
// C11 threads: two workers increment a counter under an mtx_t; main joins
// them with thrd_join, which hands back each worker's int result.
#include <threads.h>
#include <assert.h>

mtx_t m;
int counter;

int worker(void *arg) {
  for (int i = 0; i < 2; i++) {
    mtx_lock(&m);
    counter++;
    mtx_unlock(&m);
  }
  return 7;
}

int main(void) {
  thrd_t t1, t2;
  int r1, r2;
  mtx_init(&m, mtx_plain);
  thrd_create(&t1, worker, 0);
  thrd_create(&t2, worker, 0);
  thrd_join(t1, &r1);
  thrd_join(t2, &r2);
  assert(counter == 4);
  assert(r1 == 7 && r2 == 7);
  return 0;
}
