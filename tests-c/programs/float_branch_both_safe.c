// expect: safe
// args: --no-races
// A branch on a double: the model takes either arm (any truth value), and
// both arms keep the count right, so the proof holds for every value.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

extern double __VERIFIER_nondet_double(void);

int hits = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  double r = __VERIFIER_nondet_double();
  float scaled = (float)(r * 2);
  int bucket = (int)scaled;
  pthread_mutex_lock(&m);
  if ((scaled < 1.0f || !scaled) && bucket != 7)
    hits++;
  else
    hits += 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  double weights[4] = {0.5, 1.5};
  long double big = 1.0L;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  printf("%f %Lf %zu\n", weights[1], big, sizeof(double) + sizeof big);
  assert(hits == 2 && sizeof(weights) == 32 && sizeof(float) == 4);
  return 0;
}
