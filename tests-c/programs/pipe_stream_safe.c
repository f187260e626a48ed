// expect: safe
// A producer sends three numbers to main through a pipe and closes its
// write end; main reads until the end of the stream (read returns 0). Pipes
// are FIFO channels of messages: the sum is 60 on every interleaving.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>
int fds[2];
void *producer(void *arg) {
  for (int i = 1; i <= 3; i++) {
    int v = i * 10;
    write(fds[1], &v, sizeof v);
  }
  close(fds[1]);
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
