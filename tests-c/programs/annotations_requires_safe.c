// expect: safe
// A function that requires a lock (`requires_capability`, on its
// declaration in a header) is called with it held on every path; a
// function marked `no_thread_safety_analysis` initialises the counter
// before any thread exists, and `locks_excluded` says a function takes the
// lock itself.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
int total __attribute__((guarded_by(mu)));

void bump(int n) __attribute__((requires_capability(mu)));
void bump(int n) { total += n; }

void bump_locked(int n) __attribute__((locks_excluded(mu)));
void bump_locked(int n) {
  pthread_mutex_lock(&mu);
  bump(n);
  pthread_mutex_unlock(&mu);
}

__attribute__((no_thread_safety_analysis)) void reset(void) { total = 0; }

void *worker(void *arg) {
  int fast = (int)(long)arg;
  if (fast) {
    bump_locked(1);
  } else {
    pthread_mutex_lock(&mu);
    bump(1);
    pthread_mutex_unlock(&mu);
  }
  return 0;
}

int main(void) {
  reset();
  pthread_t t;
  pthread_create(&t, 0, worker, (void *)(long)__VERIFIER_nondet_int());
  bump_locked(2);
  pthread_join(t, 0);
  return 0;
}
