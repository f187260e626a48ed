// expect: safe
// args: --no-races
// pthread_self in a thread differs from main's id and equals itself (pthread_equal and ==)
// main stores its id before pthread_create, so the thread always sees it
#include <pthread.h>
extern void reach_error(void);

pthread_t main_id;

void *worker(void *arg) {
  pthread_t me = pthread_self();
  if (pthread_equal(me, main_id)) {
    reach_error();
  }
  if (!pthread_equal(me, pthread_self())) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t t;
  main_id = pthread_self();
  pthread_create(&t, 0, worker, 0);
  if (pthread_self() != main_id) {
    reach_error();
  }
  pthread_join(t, 0);
  return 0;
}
