// expect: safe
// args: --property no-deadlock
// both functions take the two locks in the same order (a before b): no
// thread can hold one of them while waiting for the other one and be
// waited for in turn
#include <pthread.h>

pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
int balance_a = 10, balance_b = 10;

void move_a_to_b(int n) {
  pthread_mutex_lock(&lock_a);
  pthread_mutex_lock(&lock_b);
  balance_a -= n;
  balance_b += n;
  pthread_mutex_unlock(&lock_b);
  pthread_mutex_unlock(&lock_a);
}

void move_b_to_a(int n) {
  pthread_mutex_lock(&lock_a);
  pthread_mutex_lock(&lock_b);
  balance_b -= n;
  balance_a += n;
  pthread_mutex_unlock(&lock_b);
  pthread_mutex_unlock(&lock_a);
}

void *teller1(void *arg) {
  move_a_to_b(1);
  return 0;
}

void *teller2(void *arg) {
  move_b_to_a(2);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, teller1, 0);
  pthread_create(&t2, 0, teller2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
