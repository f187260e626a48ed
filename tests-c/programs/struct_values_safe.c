// expect: safe
// args: --no-races
// Struct values: locals initialised from run-time values (lists with
// designators, the rest zero), a struct returned by value and used whole
// or through a member, a struct initialised from a call, and compound
// literals (a struct one through a pointer, an array one as an argument),
// in a worker that publishes its result under a mutex.
#include <assert.h>
#include <pthread.h>

struct point { int x, y; };
struct box { struct point lo, hi; int tag; };

struct point shift(struct point p, int d) {
  struct point r = { p.x + d, .y = p.y - d };
  return r;
}

int sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

struct box result;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int k = *(int *)arg;
  struct point a = { k, 2 * k };
  struct box b = { .lo = a, .hi = shift(a, 1), .tag = sum((int[]){ k, 1, 2 }, 3) };
  struct point *c = &(struct point){ .y = k };
  c->x = shift(*c, 5).x;
  pthread_mutex_lock(&m);
  result = b;
  result.lo.x += c->x + c->y;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  int k = 3;
  pthread_create(&t, 0, worker, &k);
  pthread_join(t, 0);
  assert(result.lo.x == 3 + 5 + 3 && result.lo.y == 6);
  assert(result.hi.x == 4 && result.hi.y == 5);
  assert(result.tag == 6);
  return 0;
}
