// expect: safe
// args: --no-races
// three_thread_bug_unsafe.c where t1 never resets a: b == 1 implies a == 1 forever after
// invariant: b == 1 -> a == 1 (b is set only after a == 1 was seen, and a never goes back to 0)
#include <pthread.h>
extern void reach_error(void);

_Atomic int a = 0, b = 0;

void *t1f(void *arg) {
  a = 1;
  return 0;
}

void *t2f(void *arg) {
  if (a == 1) {
    b = 1;
  }
  return 0;
}

void *t3f(void *arg) {
  if (b == 1) {
    if (a == 0) {
      reach_error();
    }
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, t1f, 0);
  pthread_create(&t2, 0, t2f, 0);
  pthread_create(&t3, 0, t3f, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}
