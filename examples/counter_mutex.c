// expect: safe
// Two workers add their share to a counter under a mutex; main checks the
// total after joining both.
#include <assert.h>
#include <pthread.h>

extern unsigned char __VERIFIER_nondet_uchar(void);

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
unsigned int counter = 0;

void *worker(void *arg) {
  unsigned int share = *(unsigned int *)arg;
  pthread_mutex_lock(&lock);
  counter = counter + share;
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void) {
  unsigned int a = __VERIFIER_nondet_uchar(), b = __VERIFIER_nondet_uchar();
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, &a);
  pthread_create(&t2, 0, worker, &b);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == a + b);
  return 0;
}
