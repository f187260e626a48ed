// expect: unsafe
// args: --no-races
// two threads do counter++ without a lock; counter++ is a load then a store, not atomic
// interleaving: t1 loads 0; t2 loads 0; t1 stores 1; t2 stores 1; joins; counter == 1
#include <pthread.h>
extern void reach_error(void);

int counter = 0;

void *inc(void *arg) {
  counter++;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, inc, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (counter != 2) {
    reach_error();
  }
  return 0;
}
