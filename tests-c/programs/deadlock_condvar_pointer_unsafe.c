// expect: unsafe
// args: --property no-deadlock
// the condition variable and its mutex are reached through pointers to
// heap blocks (a channel set up by main): the sender signals before the
// receiver waits, the wake-up is lost, and the receiver, which tests no
// flag, waits forever while main joins it
#include <pthread.h>
#include <stdlib.h>

struct channel {
  pthread_mutex_t lock;
  pthread_cond_t *ready;
};

struct channel *ch;

void *sender(void *arg) {
  pthread_mutex_lock(&ch->lock);
  pthread_cond_signal(ch->ready);
  pthread_mutex_unlock(&ch->lock);
  return 0;
}

void *receiver(void *arg) {
  pthread_mutex_lock(&ch->lock);
  pthread_cond_wait(ch->ready, &ch->lock);
  pthread_mutex_unlock(&ch->lock);
  return 0;
}

int main(void) {
  ch = malloc(sizeof(struct channel));
  if (!ch) return 1;
  ch->ready = malloc(sizeof(pthread_cond_t));
  if (!ch->ready) return 1;
  pthread_mutex_init(&ch->lock, 0);
  pthread_cond_init(ch->ready, 0);
  pthread_t s, r;
  pthread_create(&s, 0, sender, 0);
  pthread_create(&r, 0, receiver, 0);
  pthread_join(s, 0);
  pthread_join(r, 0);
  return 0;
}
