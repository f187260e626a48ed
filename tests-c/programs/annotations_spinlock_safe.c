// expect: safe
// A capability that is not a pthread lock: a spin lock written with GCC's
// atomic builtins. Its lock and unlock functions are trusted
// (`no_thread_safety_analysis`); who holds it is what their
// `acquire_capability` and `release_capability` annotations say. A
// try-lock acquires it only when it returns 1.
#include <pthread.h>

struct __attribute__((capability("spinlock"))) spin {
  int flag;
};

void spin_lock(struct spin *s) __attribute__((acquire_capability(s)))
    __attribute__((no_thread_safety_analysis));
void spin_unlock(struct spin *s) __attribute__((release_capability(s)))
    __attribute__((no_thread_safety_analysis));
int spin_trylock(struct spin *s) __attribute__((try_acquire_capability(1, s)))
    __attribute__((no_thread_safety_analysis));

void spin_lock(struct spin *s) {
  while (__sync_lock_test_and_set(&s->flag, 1))
    ;
}
void spin_unlock(struct spin *s) { __sync_lock_release(&s->flag); }
int spin_trylock(struct spin *s) { return !__sync_lock_test_and_set(&s->flag, 1); }

struct spin s;
int count __attribute__((guarded_by(s)));

void *worker(void *arg) {
  if (spin_trylock(&s)) {
    count++;
    spin_unlock(&s);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  spin_lock(&s);
  count++;
  spin_unlock(&s);
  pthread_join(t, 0);
  return 0;
}
