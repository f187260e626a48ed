// expect: unsafe
// `pt_guarded_by`: the buffer a pointer points to is guarded, the pointer
// itself is not. A consumer reads the buffer through the pointer without
// the lock after checking a flag it reads under the lock.
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
int *slots __attribute__((pt_guarded_by(mu)));
int ready __attribute__((guarded_by(mu)));

void *producer(void *arg) {
  pthread_mutex_lock(&mu);
  slots[0] = 7;
  ready = 1;
  pthread_mutex_unlock(&mu);
  return 0;
}

int main(void) {
  slots = malloc(2 * sizeof(int));
  if (!slots)
    return 0;
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&mu);
  int r = ready;
  pthread_mutex_unlock(&mu);
  int v = 0;
  if (r)
    v = *slots;
  pthread_join(t, 0);
  pthread_mutex_lock(&mu);
  free(slots);
  pthread_mutex_unlock(&mu);
  return v;
}
