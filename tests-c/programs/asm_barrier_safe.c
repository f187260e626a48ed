// expect: safe
// args: --no-races
// Compiler and CPU barriers (asm volatile("" ::: "memory"), mfence, pause) do
// nothing under sequential consistency: a flag handshake with barriers is
// correct. Another asm statement in a branch no execution takes does not
// matter.
#include <assert.h>
#include <pthread.h>

int data;
volatile int ready;

void *producer(void *arg) {
  data = 42;
  __asm__ __volatile__("" ::: "memory");
  __asm__ __volatile__("mfence" ::: "memory");
  ready = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!ready)
    __asm__ __volatile__("pause");
  __asm__ __volatile__("" ::: "memory");
  if (data != 42) {
    int x;
    __asm__("movl $1, %0" : "=r"(x));
    assert(0);
  }
  pthread_join(t, 0);
  return 0;
}
