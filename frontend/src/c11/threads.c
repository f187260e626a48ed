/* C11 <threads.h> in terms of the POSIX threads the lowering models,
   appended to a program that includes <threads.h> (SOUNDNESS.md, "C11
   threads"). Types: thrd_t is a thread handle, mtx_t a mutex, cnd_t a
   condition variable (the lowering's own types for these names);
   thrd_create and thrd_join are lowered as pthread_create and
   pthread_join directly. */
thrd_t thrd_current(void) { return pthread_self(); }
int thrd_equal(thrd_t a, thrd_t b) { return pthread_equal(a, b); }
void thrd_yield(void) {}
int thrd_sleep(const struct timespec *duration, struct timespec *remaining) { return 0; }
void thrd_exit(int res) { pthread_exit((void *)(long)res); }
int thrd_detach(thrd_t thr) { return thrd_success; }
int mtx_init(mtx_t *m, int type) {
  if (type & mtx_recursive)
    __ase_c11_recursive_mutexes_are_not_modelled();
  pthread_mutex_init(m, 0);
  return thrd_success;
}
int mtx_lock(mtx_t *m) {
  pthread_mutex_lock(m);
  return thrd_success;
}
int mtx_trylock(mtx_t *m) {
  return pthread_mutex_trylock(m) == 0 ? thrd_success : thrd_busy;
}
/* The time limit may or may not have passed: a held mutex is acquired
   once it is free, or the wait times out. It never waits forever (a
   deadlock does not count it). */
int mtx_timedlock(mtx_t *m, const struct timespec *time_point) {
  while (1) {
    if (pthread_mutex_trylock(m) == 0)
      return thrd_success;
    if (__VERIFIER_nondet_int())
      return thrd_timedout;
  }
}
int mtx_unlock(mtx_t *m) {
  pthread_mutex_unlock(m);
  return thrd_success;
}
void mtx_destroy(mtx_t *m) {}
int cnd_init(cnd_t *c) { return thrd_success; }
int cnd_signal(cnd_t *c) {
  pthread_cond_signal(c);
  return thrd_success;
}
int cnd_broadcast(cnd_t *c) {
  pthread_cond_broadcast(c);
  return thrd_success;
}
int cnd_wait(cnd_t *c, mtx_t *m) {
  pthread_cond_wait(c, m);
  return thrd_success;
}
/* A wait may end at any time, with a time-out or (spuriously, as every
   wait may) without: it never waits forever. */
int cnd_timedwait(cnd_t *c, mtx_t *m, const struct timespec *time_point) {
  int timed_out = __VERIFIER_nondet_int();
  pthread_mutex_unlock(m);
  pthread_mutex_lock(m);
  return timed_out ? thrd_timedout : thrd_success;
}
void cnd_destroy(cnd_t *c) {}
void call_once(once_flag *flag, void (*func)(void)) {
  __VERIFIER_atomic_begin();
  int first = flag->__data == 0;
  if (first)
    flag->__data = 1;
  __VERIFIER_atomic_end();
  if (first) {
    func();
    __VERIFIER_atomic_begin();
    flag->__data = 2;
    __VERIFIER_atomic_end();
  } else {
    __ase_wait_once(&flag->__data);
  }
}
