// expect: unsafe
// args: --no-races
// a worker copies a whole struct through pointers (`*dst = *src`), the
// source being one of two messages chosen by an input: main expects the
// second message's id even when the first was chosen
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct msg {
  int id;
  int value;
};

struct msg first, second, outbox;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *copier(void *arg) {
  struct msg *src = arg;
  struct msg *dst = &outbox;
  pthread_mutex_lock(&m);
  *dst = *src;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  first.id = 1;
  first.value = __VERIFIER_nondet_int();
  second.id = 2;
  second.value = __VERIFIER_nondet_int();
  int pick = __VERIFIER_nondet_int();
  struct msg *chosen = pick ? &first : &second;
  pthread_t t;
  pthread_create(&t, 0, copier, chosen);
  pthread_join(t, 0);
  if (outbox.id != 2 || outbox.value != chosen->value) {
    reach_error();
  }
  return 0;
}
