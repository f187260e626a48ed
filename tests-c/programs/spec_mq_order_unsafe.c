// expect: unsafe
// args: --no-deadlocks --spec spec_mq_order.spec
// Main closes its descriptor before the join: the worker's mq_send() can come after that mq_close(), which spec_mq_order.spec forbids (library calls as actions).
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>

void *worker(void *arg) {
  mqd_t q = mq_open("/orders", O_WRONLY);
  int x = 7;
  mq_send(q, (char *)&x, sizeof x, 0);
  mq_close(q);
  return 0;
}

int main(void) {
  struct mq_attr attr = {0};
  attr.mq_maxmsg = 2;
  attr.mq_msgsize = sizeof(int);
  mqd_t q = mq_open("/orders", O_CREAT | O_RDONLY, 0600, &attr);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  mq_close(q);
  pthread_join(t, 0);
  mq_unlink("/orders");
  return 0;
}
