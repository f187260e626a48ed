// expect: unsafe
// args: --no-races
// a heap-allocated struct shared by two workers that increment both fields without locking: an update of one field can be lost
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
struct S { int a; int b; pthread_mutex_t m; };
struct S *s;
void *worker(void *arg) {
  struct S *p = (struct S *)arg;
  p->a++;
  p->b++;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  s = malloc(sizeof(struct S));
  s->a = 0; s->b = 0;
  pthread_mutex_init(&s->m, 0);
  pthread_create(&t1, 0, worker, s);
  pthread_create(&t2, 0, worker, s);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (s->a != s->b) reach_error();
  free(s);
  return 0;
}
