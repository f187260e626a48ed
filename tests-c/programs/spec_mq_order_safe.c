// expect: safe
// args: --no-deadlocks --spec spec_mq_order.spec
// Library calls can be the actions of a specification: the worker opens the queue and sends after main created it, and closes it before main closes its own descriptor (after the join), so the calls follow spec_mq_order.spec. Checked by the default engines (the queue's messages are data MAGIC does not abstract).
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
  pthread_join(t, 0);
  mq_close(q);
  mq_unlink("/orders");
  return 0;
}
