// expect: unsafe
// three dining philosophers, each taking the fork on the left, then the one
// on the right: when all three hold their left fork, each waits for the
// fork its neighbour holds (a deadlock)
#include <pthread.h>

pthread_mutex_t fork_[3];
int meals[3];
int seat[3] = {0, 1, 2};

void *philosopher(void *arg) {
  int i = *(int *)arg;
  int left = i;
  int right = i == 2 ? 0 : i + 1;
  pthread_mutex_lock(&fork_[left]);
  pthread_mutex_lock(&fork_[right]);
  meals[i]++;
  pthread_mutex_unlock(&fork_[right]);
  pthread_mutex_unlock(&fork_[left]);
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
