// expect: unsafe
// args: --no-races
// as uninit_local_struct_handshake_safe.c, but main then asserts that the uninitialised field `tag` is 0: an indeterminate value may be anything, and the trace shows the value chosen
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
  assert(s.tag == 0);
  return 0;
}
