// expect: safe
// args: --no-races
// main's local struct is left uninitialised except for the fields the threads use (a flag, a counter, the mutex); its other fields hold indeterminate values nobody reads; main and a peer hand a turn back and forth under the mutex until the counter reaches 3
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

typedef struct {
  bool ready;
  unsigned rounds;
  int token;
  char tag;
  pthread_mutex_t m;
} Shared;

void *peer(void *arg) {
  Shared *s = arg;
  while (1) {
    pthread_mutex_lock(&s->m);
    if (s->ready) {
      s->token++;
      s->ready = false;
      if (s->token >= 3) {
        pthread_mutex_unlock(&s->m);
        break;
      }
    }
    pthread_mutex_unlock(&s->m);
  }
  return 0;
}

int main(void) {
  Shared s;
  pthread_t t;
  s.ready = false;
  s.token = 0;
  pthread_mutex_init(&s.m, 0);
  pthread_create(&t, 0, peer, &s);
  while (1) {
    pthread_mutex_lock(&s.m);
    if (!s.ready) {
      if (s.token >= 3) {
        pthread_mutex_unlock(&s.m);
        break;
      }
      s.ready = true;
    }
    pthread_mutex_unlock(&s.m);
  }
  pthread_join(t, 0);
  assert(s.token == 3 && !s.ready);
  return 0;
}
