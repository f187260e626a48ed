/* C11 <threads.h> in terms of the POSIX threads the lowering models,
   appended to a program that includes <threads.h> (SOUNDNESS.md, "C11
   threads"). Types: thrd_t is a thread handle, mtx_t a mutex, cnd_t a
   condition variable (the lowering's own types for these names);
   thrd_create, thrd_join and mtx_init (whose type, a constant, may make
   the mutex recursive) are lowered directly. Parameters and locals are
   named __ase_* so that the lowering's checks by name (addresses taken,
   assignments) do not confuse them with the program's. */
thrd_t thrd_current(void) { return pthread_self(); }
int thrd_equal(thrd_t __ase_a, thrd_t __ase_b) { return pthread_equal(__ase_a, __ase_b); }
void thrd_yield(void) {}
int thrd_sleep(const struct timespec *__ase_duration, struct timespec *__ase_remaining) { return 0; }
void thrd_exit(int __ase_res) { pthread_exit((void *)(long)__ase_res); }
int thrd_detach(thrd_t __ase_thr) { return thrd_success; }
int mtx_lock(mtx_t *__ase_m) {
  pthread_mutex_lock(__ase_m);
  return thrd_success;
}
int mtx_trylock(mtx_t *__ase_m) {
  return pthread_mutex_trylock(__ase_m) == 0 ? thrd_success : thrd_busy;
}
/* The time limit may or may not have passed: a held mutex is acquired
   once it is free, or the wait times out. It never waits forever (a
   deadlock does not count it). */
int mtx_timedlock(mtx_t *__ase_m, const struct timespec *__ase_time_point) {
  while (1) {
    if (pthread_mutex_trylock(__ase_m) == 0)
      return thrd_success;
    if (__VERIFIER_nondet_int())
      return thrd_timedout;
  }
}
int mtx_unlock(mtx_t *__ase_m) {
  pthread_mutex_unlock(__ase_m);
  return thrd_success;
}
void mtx_destroy(mtx_t *__ase_m) {}
int cnd_init(cnd_t *__ase_c) { return thrd_success; }
int cnd_signal(cnd_t *__ase_c) {
  pthread_cond_signal(__ase_c);
  return thrd_success;
}
int cnd_broadcast(cnd_t *__ase_c) {
  pthread_cond_broadcast(__ase_c);
  return thrd_success;
}
int cnd_wait(cnd_t *__ase_c, mtx_t *__ase_m) {
  pthread_cond_wait(__ase_c, __ase_m);
  return thrd_success;
}
/* A wait may end at any time, with a time-out or (spuriously, as every
   wait may) without: it never waits forever. */
int cnd_timedwait(cnd_t *__ase_c, mtx_t *__ase_m, const struct timespec *__ase_time_point) {
  int __ase_timed_out = __VERIFIER_nondet_int();
  pthread_mutex_unlock(__ase_m);
  pthread_mutex_lock(__ase_m);
  return __ase_timed_out ? thrd_timedout : thrd_success;
}
void cnd_destroy(cnd_t *__ase_c) {}
void call_once(once_flag *__ase_flag, void (*__ase_func)(void)) {
  __VERIFIER_atomic_begin();
  int __ase_first = __ase_flag->__data == 0;
  if (__ase_first)
    __ase_flag->__data = 1;
  __VERIFIER_atomic_end();
  if (__ase_first) {
    __ase_func();
    __VERIFIER_atomic_begin();
    __ase_flag->__data = 2;
    __VERIFIER_atomic_end();
  } else {
    __ase_wait_once(&__ase_flag->__data);
  }
}
