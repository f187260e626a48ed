#include <pthread.h>
#include <stdlib.h>

#define N 3
int counter;

void *worker(void *arg)
{
  counter = counter + N;
  return arg;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int y = counter +* ;
  return 0;
}
