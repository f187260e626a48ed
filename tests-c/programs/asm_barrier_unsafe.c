// expect: unsafe
// args: --no-races
// asm_barrier_safe.c with the producer setting the flag before the data: a
// barrier does not reorder anything back, main can read data == 0.
#include <assert.h>
#include <pthread.h>

int data;
volatile int ready;

void *producer(void *arg) {
  ready = 1;
  __asm__ __volatile__("" ::: "memory");
  data = 42;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!ready)
    __asm__ __volatile__("pause");
  __asm__ __volatile__("mfence" ::: "memory");
  assert(data == 42);
  pthread_join(t, 0);
  return 0;
}
