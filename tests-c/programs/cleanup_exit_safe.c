// expect: safe
// pthread_cleanup_push/pop as glibc expands them: a worker that exits
// inside the region (from a function it calls) runs its handlers,
// innermost first, and the handler releases the mutex it holds. Both
// handlers run, in order, before main joins.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int order = 0;

void release(void *arg) {
  order = order * 10 + 1;
  pthread_mutex_unlock((pthread_mutex_t *)arg);
}
void note(void *arg) { order = order * 10 + *(int *)arg; }

void give_up_early(int early) {
  if (early)
    pthread_exit(0);
}

void *worker(void *arg) {
  int two = 2;
  pthread_mutex_lock(&m);
  pthread_cleanup_push(release, &m);
  pthread_cleanup_push(note, &two);
  give_up_early(arg != 0);
  pthread_cleanup_pop(1);
  pthread_cleanup_pop(1);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, (void *)1);
  pthread_join(t, 0);
  pthread_mutex_lock(&m);
  assert(order == 21);
  pthread_mutex_unlock(&m);
  return 0;
}
