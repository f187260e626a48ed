// expect: unsafe
// args: --no-races
// Bit-fields: two workers each add 5 to a 3-bit count, which wraps to 2
// (10 modulo 8): the assertion that it is 10 fails.
#include <assert.h>
#include <pthread.h>

struct status {
  unsigned ready : 1;
  unsigned count : 3;
  int delta : 4;
  _Bool seen : 1;
  unsigned : 2;
  unsigned wide;
};

struct status st;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  st.count += 5;
  st.ready = 3;
  st.seen = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  st.delta = 13;
  st.wide = st.count + 7;
  assert(st.count == 10);
  assert(st.ready == 1 && st.seen == 1);
  assert(st.delta == -3);
  assert(st.wide == 9);
  assert(st.count - 3 < 0);
  return 0;
}
