// expect: unsafe
// args: --no-races
// the numbers of rounds and readers come from the command line (sscanf of argv[1], argv[2]); with argc == 3, two rounds and two readers, taken reaches 2 while rounds is 2
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
extern void reach_error(void);
int readers = 1;
int taken = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *reader(void *arg) {
  pthread_mutex_lock(&m);
  taken = taken + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(int argc, char *argv[]) {
  int rounds = 1;
  if (argc != 1) {
    if (argc != 3) {
      exit(1);
    }
    sscanf(argv[1], "%d", &rounds);
    sscanf(argv[2], "%d", &readers);
  }
  pthread_t pool[readers];
  for (int i = 0; i < readers; i++) {
    pthread_create(&pool[i], 0, reader, 0);
  }
  for (int i = 0; i < readers; i++) {
    pthread_join(pool[i], 0);
  }
  if (taken == 2 && rounds == 2) {
    reach_error();
  }
  return 0;
}
