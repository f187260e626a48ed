// expect: unsafe
// args: --no-races
// two threads join each other (each handle published through a global): each
// waits for the other to end
#include <pthread.h>

pthread_t first, second;
int started;

void *a(void *arg) {
  while (started < 2) {
  }
  pthread_join(second, 0);
  return 0;
}

void *b(void *arg) {
  while (started < 2) {
  }
  pthread_join(first, 0);
  return 0;
}

int main(void) {
  pthread_create(&first, 0, a, 0);
  started = 1;
  pthread_create(&second, 0, b, 0);
  started = 2;
  pthread_exit(0);
}
