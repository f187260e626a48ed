// expect: unsafe
// args: --no-races
// three threads created in a loop but only the first two joined: the third may not have run
// interleaving: main creates t[0..2]; t[0], t[1] run; main joins them; counter == 2 != 3
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t[3];
  int i;
  for (i = 0; i < 3; i++) {
    pthread_create(&t[i], 0, worker, 0);
  }
  for (i = 0; i < 2; i++) {
    pthread_join(t[i], 0);
  }
  assert(counter == 3);
  pthread_join(t[2], 0);
  return 0;
}
