// expect: unknown
// true verdict: safe
// The producer writes six messages before main reads any: more than the
// model's four messages per pipe (a real pipe holds 64 KiB), so the
// execution that fills the pipe gives up there.
#include <assert.h>
#include <pthread.h>
#include <unistd.h>
int fds[2];
void *producer(void *arg) {
  for (int i = 1; i <= 6; i++) {
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
  pthread_join(t, 0);
  int sum = 0, x;
  while (read(fds[0], &x, sizeof x) > 0)
    sum += x;
  assert(sum == 210);
  return 0;
}
