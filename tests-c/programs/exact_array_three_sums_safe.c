// expect: safe
// Three workers read two heap arrays of an input length filled with
// inputs through a helper: two sum one array each, the third sums their
// element-wise sums; main checks that the third total is the sum of the
// other two, which holds: each element of the third sum is the sum of
// the others' (a proof needs the sums over whole arrays, which the model
// of one tracked element does not relate).
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

void require(int ok) {
  if (!ok)
    abort();
}

int *inputs(int len) {
  require(len >= 0 && len <= 1000000);
  int *v = (int *)malloc(sizeof(int) * (size_t)len);
  for (int j = 0; j < len; j++)
    v[j] = __VERIFIER_nondet_int();
  return v;
}

int add(int x, int y) {
  require(y >= 0 || x >= -2147483647 - 1 - y);
  require(y <= 0 || x <= 2147483647 - y);
  return x + y;
}

int *left, *right, *both;
int len, total_left, total_right, total_both;

void *sum_left(void *arg) {
  for (int i = 0; i < len; i++)
    total_left = add(total_left, left[i]);
  return 0;
}

void *sum_right(void *arg) {
  for (int i = 0; i < len; i++)
    total_right = add(total_right, right[i]);
  return 0;
}

void *sum_both(void *arg) {
  for (int i = 0; i < len; i++) {
    both[i] = add(left[i], right[i]);
    total_both = add(total_both, both[i]);
  }
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  len = __VERIFIER_nondet_int();
  left = inputs(len);
  right = inputs(len);
  both = inputs(len);
  pthread_create(&a, 0, sum_left, 0);
  pthread_create(&b, 0, sum_right, 0);
  pthread_create(&c, 0, sum_both, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  if (total_both != add(total_left, total_right))
    reach_error();
  return 0;
}
