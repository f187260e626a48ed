// expect: unsafe
// args: --races
// two threads do counter++ on a shared int without a lock: a data race on counter
// race: after both creates, worker.1 and worker.2 are both about to load (and then store) counter
#include <pthread.h>

int counter = 0;

void *worker(void *arg) {
  counter++;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
