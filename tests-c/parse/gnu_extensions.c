/* GNU extensions found in SV-COMP's pthread tasks and in system headers. */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

#define likely(x) __builtin_expect(!!(x), 1)

extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "gnu_extensions.c", 3, "reach_error"); }

__thread int tls_counter = 0;            /* thread-local storage */
static __thread _Bool tls_flag;
int __thread tls_after_type;

int a$flush_delayed;                      /* `$` in identifiers (pthread-wmm) */
int a$mem_tmp;
int a_flush_delayed;                      /* must not collide with the renamed a$flush_delayed */
_Bool main$tmp_guard0;

extern int renamed_fn(int) __asm__("real_renamed_fn");
extern int renamed_var __asm__("real_renamed_var");

__extension__ typedef long long i64;
__extension__ static i64 big = 1LL << 40;

struct __attribute__((packed)) packed_s { char c; int i; } __attribute__((aligned(8)));
enum __attribute__((packed)) small_e { SMALL_A, SMALL_B };
__const__ int const_spelled = 1;

static inline int sum(int *__restrict a, int *__restrict__ b) { return *a + *b; }

void *worker(void *arg __attribute__((unused)))
{
  __label__ out;
  static __thread int calls;
  calls++;
  tls_counter++;
  a$flush_delayed = a$mem_tmp;
  switch (tls_counter) {
  case 1:
    tls_flag = 1;
    __attribute__((fallthrough));
  case 2 ... 3:
    break;
  default:
    goto out;
  }
out: __attribute__((unused));
  if (likely(arg == 0))
    return __extension__ ({ int z = calls; (void *)(long)z; });
  return 0;
}

int main(void)
{
  pthread_t t;
  int x = 1, y = 2;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  if (__builtin_expect(sum(&x, &y) != 3, 0))
    reach_error();
  char *s = "a$b is a string, not an identifier";
  (void)s;
  return 0;
}
