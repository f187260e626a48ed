// expect: unsafe
// args: --no-races
// Peterson with turn written before the flag: mutual exclusion fails
// interleaving: thr1 turn = 1; thr2 flag2 = 1, turn = 0, sees flag1 == 0, enters;
//   thr1 flag1 = 1, sees turn == 0, enters; thr2 x = 1; thr1 x = 0; thr2 reads x == 0; error
extern void reach_error(void);
#include <pthread.h>

int flag1 = 0, flag2 = 0;
int turn;
int x;

void *thr1(void *_) {
  turn = 1;
  flag1 = 1;
  while (flag2 == 1 && turn == 1) {
  }
  x = 0;                          // critical section
  if (!(x <= 0)) reach_error();
  flag1 = 0;
  return 0;
}

void *thr2(void *_) {
  turn = 0;
  flag2 = 1;
  while (flag1 == 1 && turn == 0) {
  }
  x = 1;                          // critical section
  if (!(x >= 1)) reach_error();
  flag2 = 0;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
