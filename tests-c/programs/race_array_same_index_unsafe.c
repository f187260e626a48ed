// expect: unsafe
// args: --races
// two threads write cells of a shared array: one writes a[1], the other a[i] for a nondet i in {0, 1}
// race: with i == 1 both threads are about to store to the same cell a[1]
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);

int a[2];

void *fixed(void *arg) {
  a[1] = 1;
  return 0;
}

void *chosen(void *arg) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 1)
    abort();
  a[i] = 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, fixed, 0);
  pthread_create(&t2, 0, chosen, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
