// expect: safe
// args: --no-races --engine cegpv
// CEGPV: publication through a flag, with statistics the property does not
// read. The first slice keeps `data`, `ready` and what the assertion reads;
// `misses`, `hits` and the log, which grow without bound, are sliced away,
// so the slice has finitely many states and the exhaustive search proves it.
// The consumer sees data == 42 once ready is 1 (the producer writes data
// first).
#include <assert.h>
#include <pthread.h>

int data, ready, hits, misses, logpos, logbuf[4];

void *producer(void *arg) {
  hits++;
  data = 42;
  logbuf[logpos % 4] = 1;
  logpos++;
  ready = 1;
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
