// expect: unknown
// true verdict: safe
// args: --no-races
// A semaphore inside a union: the pthread API's operations on it would
// not keep the union's tag (which member holds the bytes), so the first
// one gives up where reached.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

union slot { sem_t s; int x; };
union slot u;

void *worker(void *arg) {
  sem_post(&u.s);
  return 0;
}

int main(void) {
  pthread_t t;
  sem_init(&u.s, 0, 0);
  pthread_create(&t, 0, worker, 0);
  sem_wait(&u.s);
  pthread_join(t, 0);
  return 0;
}
