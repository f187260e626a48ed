// expect: unknown
// true verdict: safe
// args: --no-races
// Every member of a union has the union's address; the model gives each
// member cells of their own, so the address of the first member (and of
// the union) is modelled and that of a later member gives up where taken.
#include <assert.h>
#include <pthread.h>

union pair_or_int { int a; int b; };
union pair_or_int u;

void set(int *p, int v) { *p = v; }

void *worker(void *arg) {
  set(&u.b, 5);
  return 0;
}

int main(void) {
  set(&u.a, 3);
  assert(u.a == 3);
  int *r = (int *)&u;
  *r = 4;
  assert(u.a == 4);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(u.b == 5);
  return 0;
}
