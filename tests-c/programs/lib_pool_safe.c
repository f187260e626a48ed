// expect: safe
// args: --concurrent pool_add:2,pool_run --no-races
// A task queue library without main, checked with --concurrent: pool_add
// takes a function pointer and an opaque `void *` argument (here a
// `struct job *`, which pool_run casts back); the harness passes any
// function of the file of that type (or one that does nothing) and the
// address of a shared `struct job`. Every access is under the mutex.
#include <pthread.h>
extern void reach_error(void);

struct job {
  int runs;
};

struct task {
  void (*function)(void *);
  void *argument;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct task queue[4];
static int count = 0;

void count_run(void *argument) {
  struct job *j = (struct job *)argument;
  j->runs = 1;
}

int pool_add(void (*function)(void *), void *argument) {
  struct job *j = argument;
  pthread_mutex_lock(&lock);
  if (count == 4) {
    pthread_mutex_unlock(&lock);
    return -1;
  }
  queue[count].function = function;
  queue[count].argument = j;
  count = count + 1;
  pthread_mutex_unlock(&lock);
  return 0;
}

void pool_run(void) {
  pthread_mutex_lock(&lock);
  if (count > 0) {
    count = count - 1;
    if (queue[count].function == 0) {
      reach_error();
    }
    queue[count].function(queue[count].argument);
  }
  if (count < 0 || count > 4) {
    reach_error();
  }
  pthread_mutex_unlock(&lock);
}
