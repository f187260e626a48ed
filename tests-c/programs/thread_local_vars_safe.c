// expect: safe
// args: --no-races
// two instances of the same thread function each have their own local variable
// invariant: loc is private to each instance, so each sees exactly its own two increments
#include <pthread.h>
extern void reach_error(void);

void *worker(void *arg) {
  int loc = 0;
  loc++;
  loc++;
  if (loc != 2) {
    reach_error();
  }
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
