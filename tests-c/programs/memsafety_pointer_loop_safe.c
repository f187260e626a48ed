// expect: safe
// args: --property valid-memsafety
// A worker sums an array by a pointer that runs up to one past its end
// (`&a[2]`, a valid address that is never dereferenced).
#include <pthread.h>

int a[2] = {1, 2};
int sum;

void *worker(void *arg) {
  for (int *p = a; p != &a[2]; p++)
    sum += *p;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
