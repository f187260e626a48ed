// expect: safe
// args: --no-races
// A nonblocking message queue of capacity 1: a receive from the empty
// queue fails with -1 (EAGAIN) instead of waiting, and so does a second
// send; a receive buffer shorter than the message size fails (EMSGSIZE),
// and so does a send through a read-only descriptor. Then the message is
// received, and a receive after mq_close fails (EBADF).
#include <assert.h>
#include <fcntl.h>
#include <mqueue.h>

int main(void) {
  struct mq_attr attr = {.mq_maxmsg = 1, .mq_msgsize = 8};
  mqd_t q = mq_open("/one", O_CREAT | O_RDWR | O_NONBLOCK, 0600, &attr);
  long long x = 7, y = 0;
  int small = 0;
  assert(mq_receive(q, (char *)&y, sizeof y, 0) == -1);
  assert(mq_send(q, (const char *)&x, sizeof x, 0) == 0);
  assert(mq_send(q, (const char *)&x, sizeof x, 0) == -1);
  assert(mq_receive(q, (char *)&small, sizeof small, 0) == -1);
  mqd_t r = mq_open("/one", O_RDONLY);
  assert(mq_send(r, (const char *)&x, sizeof x, 0) == -1);
  assert(mq_receive(q, (char *)&y, sizeof y, 0) == 8 && y == 7);
  assert(mq_close(q) == 0);
  assert(mq_receive(q, (char *)&y, sizeof y, 0) == -1);
  return 0;
}
