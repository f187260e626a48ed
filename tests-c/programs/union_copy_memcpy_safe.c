// expect: safe
// args: --no-races
// Unions copied with memcpy and by assignment, and zeroed with memset: the
// copy keeps the member last stored readable, and after memset every
// member reads 0.
#include <assert.h>
#include <string.h>
#include <pthread.h>

struct pair { int a, b; };
union slot { int n; struct pair p; };
union slot slots[2];

void *worker(void *arg) {
  union slot s;
  s.p.a = 3;
  s.p.b = 4;
  memcpy(&slots[1], &s, sizeof s);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(slots[1].p.a + slots[1].p.b == 7);
  slots[0] = slots[1];
  assert(slots[0].p.b == 4);
  memset(&slots[0], 0, sizeof(union slot));
  assert(slots[0].n == 0 && slots[0].p.b == 0);
  union slot *q = &slots[1];
  q->n = 9;
  assert(slots[1].n == 9);
  return 0;
}
