// expect: safe
// args: --no-races
// workers dispatch through a table of function pointers (with arguments and results) chosen by a nondet index; every handler keeps the counter even
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int counter = 0;
pthread_mutex_t m;
int add_two(int k) { return k + 2; }
int add_four(int k) { return k + 4; }
int keep(int k) { return k; }
typedef int (*handler_t)(int);
handler_t handlers[3];
void *worker(void *arg) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 2) return 0;
  handler_t h = handlers[i];
  pthread_mutex_lock(&m);
  counter = h(counter);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  handlers[0] = add_two;
  handlers[1] = add_four;
  handlers[2] = keep;
  pthread_mutex_init(&m, 0);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (counter % 2 != 0) reach_error();
  return 0;
}
