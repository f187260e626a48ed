// expect: safe
// args: --no-races --extern-calls pure
// With --extern-calls pure, a function the program declares but does not
// define returns any value of its type and writes no memory (an
// assumption the user makes): the worker's bounds check holds whatever
// `sensor_read` returns, and `log_event` changes nothing the program reads.
#include <assert.h>
#include <pthread.h>

int sensor_read(int channel);
void log_event(const char *what, int value);

int reading = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int v = sensor_read(3);
  if (v < 0)
    v = 0;
  if (v > 100)
    v = 100;
  pthread_mutex_lock(&m);
  reading = v;
  pthread_mutex_unlock(&m);
  log_event("read", v);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  int r = reading;
  pthread_mutex_unlock(&m);
  assert(r >= 0 && r <= 100);
  pthread_join(t, 0);
  return 0;
}
