// expect: unsafe
// args: --no-races
// barrier_safe.c with the barrier count 1: a thread passes its barrier alone and may read the other's value before it is written
// error: thread 1 writes data[0], passes the barrier of count 1 at once, and reads data[1] == 0
#include <pthread.h>
#include <assert.h>

pthread_barrier_t b;
int data[2];

void *worker(void *arg) {
  int id = (int)arg;
  data[id] = 1;
  pthread_barrier_wait(&b);
  assert(data[1 - id] == 1);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_barrier_init(&b, 0, 1);
  pthread_create(&t1, 0, worker, (void *)0);
  pthread_create(&t2, 0, worker, (void *)1);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
