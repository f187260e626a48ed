// expect: safe
// args: --no-races
// two threads publish a value, meet at a pthread barrier of count 2, read the other's value, twice; exactly one gets PTHREAD_BARRIER_SERIAL_THREAD per round
// invariant: no thread leaves a round's barrier before both arrived, so the other's write of that round happened
#include <pthread.h>
#include <assert.h>

pthread_barrier_t b;
int data[2];
int serial[2];

void *worker(void *arg) {
  int id = (int)arg;
  for (int round = 1; round <= 2; round++) {
    data[id] = round;
    int r = pthread_barrier_wait(&b);
    if (r == PTHREAD_BARRIER_SERIAL_THREAD)
      serial[id]++;
    assert(data[1 - id] >= round);
    pthread_barrier_wait(&b);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_barrier_init(&b, 0, 2);
  pthread_create(&t1, 0, worker, (void *)0);
  pthread_create(&t2, 0, worker, (void *)1);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(serial[0] + serial[1] == 2);
  return 0;
}
