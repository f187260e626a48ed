// expect: unsafe
// args: --no-races
// Struct values as in struct_values_safe.c; the assertion expects the
// upper corner shifted by 2, but `shift(a, 1)` moves it by 1.
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
  assert(result.hi.x == 5 && result.hi.y == 4);
  assert(result.tag == 6);
  return 0;
}
