// expect: safe
// args: --no-races
// Unions: a message whose payload is a union of an integer, a pair and a
// pointer; the tag says which member was stored. Static unions are zero in
// every member; a designated initializer, a copy of a union, an anonymous
// union in a struct and a member stored through a pointer all keep the
// member last stored readable.
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

struct pair { int a, b; };
union payload { int n; struct pair p; int *ptr; };
struct msg { int kind; union payload u; };
struct node { int key; union { int count; char flag; }; };

struct msg box;
union payload zero;
int target = 7;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void fill(union payload *u, int k) {
  if (k == 0)
    u->n = 41;
  else {
    u->p.a = k;
    u->p.b = k + 1;
  }
}

void *producer(void *arg) {
  int k = *(int *)arg;
  struct msg local;
  local.kind = k;
  fill(&local.u, k);
  pthread_mutex_lock(&m);
  box = local;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 5)
    return 0;
  box.kind = -1;
  pthread_create(&t, 0, producer, &k);
  pthread_mutex_lock(&m);
  if (box.kind == 0)
    assert(box.u.n == 41);
  else if (box.kind > 0)
    assert(box.u.p.b == box.u.p.a + 1);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(zero.n == 0 && zero.p.b == 0 && zero.ptr == 0);
  union payload d = { .ptr = &target };
  union payload e = d;
  assert(*e.ptr == 7);
  struct node nd = { 1, { 5 } };
  nd.count++;
  assert(nd.count == 6);
  nd.flag = 1;
  assert(nd.flag == 1);
  return 0;
}
