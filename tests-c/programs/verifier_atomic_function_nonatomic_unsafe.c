// expect: unsafe
// args: --no-races
// the same increment in a function NOT named __VERIFIER_atomic_*: it is not atomic
// interleaving: t1 tmp = 0; t2 tmp = 0; t1 counter = 1; t2 counter = 1; joins; counter == 1
#include <pthread.h>
extern void reach_error(void);

int counter = 0;

void plain_inc(void) {
  int tmp = counter;
  tmp = tmp + 1;
  counter = tmp;
}

void *worker(void *arg) {
  plain_inc();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (counter != 2) {
    reach_error();
  }
  return 0;
}
