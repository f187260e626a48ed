// expect: safe
// args: --no-races
// three threads created in a for loop with a constant trip count and joined in a loop
// invariant: each thread adds 1 under the mutex; after all three joins counter == 3
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
  for (i = 0; i < 3; i++) {
    pthread_join(t[i], 0);
  }
  assert(counter == 3);
  return 0;
}
