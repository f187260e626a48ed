// expect: unsafe
// args: --no-races --engine cegpv
// CEGPV: publication through a flag, with statistics the property does not
// read (sliced away), and the bug of setting the flag first: the consumer
// runs between `ready = 1` and `data = 42` and reads 0. The counterexample
// of the slice is a run of the program (reconstructed with its values).
#include <assert.h>
#include <pthread.h>

int data, ready, hits, misses, logpos, logbuf[4];

void *producer(void *arg) {
  hits++;
  ready = 1;
  logbuf[logpos % 4] = 1;
  logpos++;
  data = 42;
  return 0;
}

void *consumer(void *arg) {
  while (!ready)
    misses++;
  assert(data == 42);
  hits += 2;
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
