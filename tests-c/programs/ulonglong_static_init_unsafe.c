// expect: unsafe
// args: --no-races
// the thread increments g, the greatest unsigned long long, to 0
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
  assert(g == 18446744073709551615ULL);
  assert(arr[1] + 2 == 0);
  assert(s * 2 == 0);
  assert(loc[1] == 18446744073709551615ULL);
  return 0;
}
