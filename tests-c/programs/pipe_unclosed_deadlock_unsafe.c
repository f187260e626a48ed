// expect: unsafe
// args: --property no-deadlock
// The producer never closes its write end: after the three messages, main
// waits in `read` forever while the producer has ended (a deadlock).
#include <assert.h>
#include <pthread.h>
#include <unistd.h>
int fds[2];
void *producer(void *arg) {
  for (int i = 1; i <= 3; i++) {
    int v = i * 10;
    write(fds[1], &v, sizeof v);
  }
  return 0;
}
int main(void) {
  if (pipe(fds) != 0) return 1;
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  int sum = 0, x;
  while (read(fds[0], &x, sizeof x) > 0)
    sum += x;
  pthread_join(t, 0);
  assert(sum == 60);
  return 0;
}
