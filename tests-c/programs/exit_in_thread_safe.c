// expect: safe
// args: --no-races
// exit() in a thread ends the whole process, so main (blocked in pthread_join) never reaches the error
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);

void *quitter(void *arg) {
  exit(0);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, quitter, 0);
  pthread_join(t, 0);
  reach_error();
  return 0;
}
