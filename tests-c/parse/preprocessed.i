# 1 "orig/program.c"
# 1 "<built-in>"
# 1 "<command-line>"
# 1 "orig/program.c"
typedef unsigned int size_t;
typedef unsigned long int pthread_t;

extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
# 9 "orig/program.c"
__thread int owner;
int a$w_buff0 = 0;

void *thr(void *arg)
{
  owner = 1;
  a$w_buff0 = owner;
  return arg;
}
