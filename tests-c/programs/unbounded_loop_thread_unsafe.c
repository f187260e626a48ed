// expect: unsafe
// args: --no-races
// a thread loops forever: c = c + 1; if (c == 5) c = 0; the value 5 is briefly visible
// interleaving: spinner runs 5 iterations up to the write c = 5; checker reads 5; error
#include <pthread.h>
extern void reach_error(void);

int c = 0;

void *spinner(void *arg) {
  while (1) {
    c = c + 1;
    if (c == 5) {
      c = 0;
    }
  }
  return 0;
}

void *checker(void *arg) {
  if (c == 5) {
    reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, spinner, 0);
  pthread_create(&t2, 0, checker, 0);
  pthread_join(t2, 0);
  return 0;
}
