// expect: unsafe
// args: --no-races
// the writer holds the lock but the reader does not take it, so it sees a half-done update
// interleaving: writer locks, x = 1; reader reads x == 1, y == 0; error
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0, y = 0;

void *writer(void *arg) {
  pthread_mutex_lock(&m);
  x = x + 1;
  y = y + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  int a = x;
  int b = y;
  if (a != b) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
