// expect: safe
// args: --concurrent transfer:2 --no-races
// The library of lib_counter_unsafe.c with a mutex around the updates: any number of calls by two threads keep balance in {0, 1, 2} and the assertion holds.
#include <assert.h>
#include <pthread.h>

int balance;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void transfer(void) {
  pthread_mutex_lock(&lock);
  balance = balance + 1;
  assert(balance > 0);
  balance = balance - 1;
  pthread_mutex_unlock(&lock);
}
