// expect: unknown
// true verdict: safe
// args: --no-races
// POSIX message queue with two priorities waiting together: mq_receive
// takes the highest priority first (5 before 1). The model keeps one
// priority per queue and gives up where the second one is sent.
#include <assert.h>
#include <fcntl.h>
#include <mqueue.h>

int main(void) {
  struct mq_attr attr = {.mq_maxmsg = 2, .mq_msgsize = sizeof(int)};
  mqd_t q = mq_open("/urgent", O_CREAT | O_RDWR, 0600, &attr);
  int low = 1, high = 2, got = 0;
  unsigned prio = 0;
  mq_send(q, (const char *)&low, sizeof low, 1);
  mq_send(q, (const char *)&high, sizeof high, 5);
  mq_receive(q, (char *)&got, sizeof got, &prio);
  assert(got == 2 && prio == 5);
  return 0;
}
