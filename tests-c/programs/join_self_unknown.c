// expect: unknown
// a thread joins itself through the global handle main stored: POSIX
// leaves it undefined (glibc returns EDEADLK at once), so it gives up
// rather than wait forever (no deadlock is reported)
#include <pthread.h>

pthread_t me;

void *worker(void *arg) {
  pthread_join(me, 0);
  return 0;
}

int main(void) {
  pthread_create(&me, 0, worker, 0);
  pthread_join(me, 0);
  return 0;
}
