// expect: unsafe
// args: --no-races --engine cegpv
// CEGPV: Peterson's mutual exclusion with counters the property does not
// read (sliced away), and a bug: t1 gives the turn to itself (`turn = 1`),
// so its test `turn == 0` fails and it enters while t0 is inside (t0
// entered while flag1 was down).
#include <assert.h>
#include <pthread.h>

int flag0, flag1, turn, inside;
int rounds0, rounds1, waits0, waits1, total;

void *t0(void *arg) {
  while (1) {
    flag0 = 1;
    turn = 1;
    while (flag1 == 1 && turn == 1)
      waits0++;
    inside++;
    assert(inside == 1);
    inside--;
    rounds0++;
    total += rounds0;
    flag0 = 0;
  }
  return 0;
}

void *t1(void *arg) {
  while (1) {
    flag1 = 1;
    turn = 1;
    while (flag0 == 1 && turn == 0)
      waits1++;
    inside++;
    assert(inside == 1);
    inside--;
    rounds1++;
    total += rounds1;
    flag1 = 0;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t0, 0);
  pthread_create(&b, 0, t1, 0);
  return 0;
}
