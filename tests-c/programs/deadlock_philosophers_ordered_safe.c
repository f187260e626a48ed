// expect: safe
// three dining philosophers taking the lower-numbered fork first: the forks
// are locked in one global order, so no cycle of waits can form
#include <pthread.h>

pthread_mutex_t fork_[3];
int meals[3];
int seat[3] = {0, 1, 2};

void *philosopher(void *arg) {
  int i = *(int *)arg;
  int left = i;
  int right = i == 2 ? 0 : i + 1;
  int first = left < right ? left : right;
  int second = left < right ? right : left;
  pthread_mutex_lock(&fork_[first]);
  pthread_mutex_lock(&fork_[second]);
  meals[i]++;
  pthread_mutex_unlock(&fork_[second]);
  pthread_mutex_unlock(&fork_[first]);
  return 0;
}

int main(void) {
  pthread_t p[3];
  for (int i = 0; i < 3; i++)
    pthread_mutex_init(&fork_[i], 0);
  for (int i = 0; i < 3; i++)
    pthread_create(&p[i], 0, philosopher, &seat[i]);
  for (int i = 0; i < 3; i++)
    pthread_join(p[i], 0);
  return 0;
}
