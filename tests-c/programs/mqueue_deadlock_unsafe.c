// expect: unsafe
// args: --property no-deadlock
// no-deadlock: a consumer waits for two messages on a message queue, the
// producer sends one: the consumer waits forever (main waits for it).
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>

mqd_t q;

void *consumer(void *arg) {
  int x;
  mq_receive(q, (char *)&x, sizeof x, 0);
  mq_receive(q, (char *)&x, sizeof x, 0);
  return 0;
}

int main(void) {
  struct mq_attr attr = {.mq_maxmsg = 2, .mq_msgsize = sizeof(int)};
  q = mq_open("/pair", O_CREAT | O_RDWR, 0600, &attr);
  pthread_t t;
  pthread_create(&t, 0, consumer, 0);
  int one = 1;
  mq_send(q, (const char *)&one, sizeof one, 0);
  pthread_join(t, 0);
  return 0;
}
