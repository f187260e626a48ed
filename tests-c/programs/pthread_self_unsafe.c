// expect: unsafe
// args: --no-races
// a thread's pthread_self is never main's id, so the "not main" branch is always taken
#include <pthread.h>
extern void reach_error(void);

pthread_t main_id;

void *worker(void *arg) {
  if (!pthread_equal(pthread_self(), main_id)) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t t;
  main_id = pthread_self();
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
