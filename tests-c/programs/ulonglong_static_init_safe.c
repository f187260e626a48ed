// expect: safe
// args: --no-races
// static unsigned long long values from 2^63 on (file scope, static
// local, array) and a local array initialised with one
#include <assert.h>
#include <pthread.h>
unsigned long long g = 18446744073709551615ULL;
unsigned long long arr[2] = {1, 18446744073709551614ULL};
void *t(void *a) { g++; return 0; }
int main(void) {
  static unsigned long long s = 9223372036854775808ULL;
  unsigned long long loc[2] = {5, 18446744073709551615ULL};
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  pthread_join(th, 0);
  assert(g == 0);
  assert(arr[1] + 2 == 0);
  assert(s * 2 == 0);
  assert(loc[1] == 18446744073709551615ULL);
  return 0;
}
