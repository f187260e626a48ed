// expect: unsafe
// args: --no-races
// atomic_section_safe.c without the atomic sections
// interleaving: updater x = 1; checker reads x == 1 and y == 0; error
#include <pthread.h>
extern void reach_error(void);

int x = 0, y = 0;

void *updater(void *arg) {
  x = x + 1;
  y = y + 1;
  return 0;
}

void *checker(void *arg) {
  int a = x;
  int b = y;
  if (a != b) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, updater, 0);
  pthread_create(&t2, 0, updater, 0);
  pthread_create(&t3, 0, checker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}
