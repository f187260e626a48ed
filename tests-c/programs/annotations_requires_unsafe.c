// expect: unsafe
// A function that requires a lock (`requires_capability`, on its
// declaration in a header) is called by a worker without it, only for some
// inputs. No data race: the other thread never runs `bump` concurrently
// (it is joined first), but the annotation is broken.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
int total __attribute__((guarded_by(mu)));

void bump(int n) __attribute__((requires_capability(mu)));
void bump(int n) { total += n; }

void *worker(void *arg) {
  int fast = (int)(long)arg;
  if (fast) {
    bump(1);
  } else {
    pthread_mutex_lock(&mu);
    bump(1);
    pthread_mutex_unlock(&mu);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, (void *)(long)__VERIFIER_nondet_int());
  pthread_join(t, 0);
  pthread_mutex_lock(&mu);
  bump(2);
  pthread_mutex_unlock(&mu);
  return 0;
}
