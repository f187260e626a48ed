// expect: safe
// args: --no-races
// a worker per request, started in an endless loop; each picks one of two handlers through a function pointer and stores its result under a spin lock made of atomic sections; a monitor thread checks every result it can see
#include <pthread.h>
extern void abort(void);
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int lock = 0;
_Atomic int result = 0;
void acquire(void) {
  __VERIFIER_atomic_begin();
  if (lock != 0) abort();
  lock = 1;
  __VERIFIER_atomic_end();
}
void release(void) {
  __VERIFIER_atomic_begin();
  lock = 0;
  __VERIFIER_atomic_end();
}
int small(int a, int b) { return a - b; }
int large(int a, int b) { return a + b; }
void *worker(void *arg) {
  int (*handler)(int, int) = __VERIFIER_nondet_int() ? small : large;
  acquire();
  result = handler(20, 5);
  release();
  return 0;
}
void *monitor(void *arg) {
  while (1) {
    int r = result;
    if (r != 0 && r != 15 && r != 25) reach_error();
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, monitor, 0);
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
