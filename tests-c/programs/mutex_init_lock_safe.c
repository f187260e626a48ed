// expect: safe
// args: --no-races
// pthread_mutex_init in main; the writer keeps x == y outside the lock, the reader checks under it
// invariant: whenever m is free, x == y (both are only changed together while m is held)
#include <pthread.h>
extern void reach_error(void);

pthread_mutex_t m;
int x = 0, y = 0;

void *writer(void *arg) {
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    x = x + 1;
    y = y + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *reader(void *arg) {
  pthread_mutex_lock(&m);
  if (x != y) {
    reach_error();
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_mutex_init(&m, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  pthread_mutex_destroy(&m);
  return 0;
}
