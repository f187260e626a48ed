// expect: safe
// args: --no-races
// POSIX message queue between threads: a producer sends 1, 2, 3 through a
// queue of capacity 2 (it waits while the queue is full); the consumer
// receives them in order. mq_receive returns the message's size.
#include <assert.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>

void *producer(void *arg) {
  mqd_t q = mq_open("/numbers", O_WRONLY);
  for (int i = 1; i <= 3; i++)
    mq_send(q, (const char *)&i, sizeof i, 0);
  mq_close(q);
  return 0;
}

int main(void) {
  struct mq_attr attr = {.mq_maxmsg = 2, .mq_msgsize = sizeof(int)};
  mqd_t q = mq_open("/numbers", O_CREAT | O_RDONLY, 0600, &attr);
  assert(q != (mqd_t)-1);
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  int last = 0;
  for (int k = 0; k < 3; k++) {
    int x;
    ssize_t n = mq_receive(q, (char *)&x, sizeof x, 0);
    assert(n == sizeof x);
    assert(x == last + 1);
    last = x;
  }
  pthread_join(t, 0);
  mq_close(q);
  mq_unlink("/numbers");
  return 0;
}
