// expect: unsafe
// Clang's thread-safety annotations, as a C library writes them: a mutex
// type that is a capability, lock functions that acquire and release it
// (annotated on their definitions, as Clang accepts), and a counter
// guarded by the mutex. `main` reads the counter after the join without
// the lock: no race (the worker has ended), but `guarded_by` is broken.
#include <pthread.h>

#if defined(__clang__) || defined(__ASE__)
#define TSA(x) __attribute__((x))
#else
#define TSA(x)
#endif
#define CAPABILITY(x) TSA(capability(x))
#define GUARDED_BY(x) TSA(guarded_by(x))
#define REQUIRES(...) TSA(requires_capability(__VA_ARGS__))
#define ACQUIRE(...) TSA(acquire_capability(__VA_ARGS__))
#define RELEASE(...) TSA(release_capability(__VA_ARGS__))

typedef struct CAPABILITY("mutex") mutex {
  pthread_mutex_t m;
} mutex_t;

void mutex_lock(mutex_t *mu) ACQUIRE(mu) { pthread_mutex_lock(&mu->m); }
void mutex_unlock(mutex_t *mu) RELEASE(mu) { pthread_mutex_unlock(&mu->m); }

mutex_t lock = {PTHREAD_MUTEX_INITIALIZER};
int hits GUARDED_BY(lock);

static void record(int n) REQUIRES(lock) { hits += n; }

void *worker(void *arg) {
  mutex_lock(&lock);
  record(1);
  mutex_unlock(&lock);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  mutex_lock(&lock);
  record(2);
  mutex_unlock(&lock);
  pthread_join(t, 0);
  int seen = hits;
  return seen == 3 ? 0 : 1;
}
