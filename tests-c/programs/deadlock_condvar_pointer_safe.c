// expect: safe
// args: --property no-deadlock
// the condition variable and its mutex are reached through pointers to
// heap blocks (a channel set up by main): the receiver waits in a loop on
// the flag the sender sets under the lock, so a wake-up sent before the
// wait is not needed (no deadlock)
#include <pthread.h>
#include <stdlib.h>

struct channel {
  pthread_mutex_t lock;
  pthread_cond_t *ready;
  int sent;
};

struct channel *ch;

void *sender(void *arg) {
  pthread_mutex_lock(&ch->lock);
  ch->sent = 1;
  pthread_cond_signal(ch->ready);
  pthread_mutex_unlock(&ch->lock);
  return 0;
}

void *receiver(void *arg) {
  pthread_mutex_lock(&ch->lock);
  while (!ch->sent) {
    pthread_cond_wait(ch->ready, &ch->lock);
  }
  pthread_mutex_unlock(&ch->lock);
  return 0;
}

int main(void) {
  ch = malloc(sizeof(struct channel));
  if (!ch) return 1;
  ch->ready = malloc(sizeof(pthread_cond_t));
  if (!ch->ready) return 1;
  ch->sent = 0;
  pthread_mutex_init(&ch->lock, 0);
  pthread_cond_init(ch->ready, 0);
  pthread_t s, r;
  pthread_create(&s, 0, sender, 0);
  pthread_create(&r, 0, receiver, 0);
  pthread_join(s, 0);
  pthread_join(r, 0);
  return 0;
}
