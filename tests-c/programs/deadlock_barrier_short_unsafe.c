// expect: unsafe
// a barrier for three threads that only two threads wait at: both wait
// forever (and main waits for them)
#include <pthread.h>

pthread_barrier_t b;
int phase[2];

void *worker(void *arg) {
  int id = (int)(long)arg;
  phase[id] = 1;
  pthread_barrier_wait(&b);
  phase[id] = 2;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_barrier_init(&b, 0, 3);
  pthread_create(&t1, 0, worker, (void *)0);
  pthread_create(&t2, 0, worker, (void *)1);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
