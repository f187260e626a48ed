// expect: unsafe
// args: --no-races
// POSIX message queue with two producers: each sends its number; the
// consumer assumes producer 1's message comes first, but producer 2 may
// send before it.
#include <assert.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>

mqd_t q;

void *producer(void *arg) {
  int id = (int)(long)arg;
  mq_send(q, (const char *)&id, sizeof id, 0);
  return 0;
}

int main(void) {
  struct mq_attr attr = {.mq_maxmsg = 4, .mq_msgsize = sizeof(int)};
  q = mq_open("/ids", O_CREAT | O_RDWR, 0600, &attr);
  pthread_t a, b;
  pthread_create(&a, 0, producer, (void *)1);
  pthread_create(&b, 0, producer, (void *)2);
  int first;
  mq_receive(q, (char *)&first, sizeof first, 0);
  assert(first == 1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
