// expect: unsafe
// args: --no-races
// a linked queue of malloc'd nodes whose producer pushes at the head (a stack): the consumer expecting FIFO order sees 3 or 2 first
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
struct node { int val; struct node *next; };
struct node *head, *tail;
pthread_mutex_t m;
void *producer(void *arg) {
  for (int i = 1; i <= 3; i++) {
    struct node *n = malloc(sizeof(struct node));
    n->val = i;
    n->next = 0;
    pthread_mutex_lock(&m);
    n->next = head; head = n; if (!tail) tail = n;
    tail = n;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
void *consumer(void *arg) {
  int expect = 1;
  while (expect <= 3) {
    pthread_mutex_lock(&m);
    struct node *n = head;
    if (n) {
      head = n->next;
      if (!head) tail = 0;
    }
    pthread_mutex_unlock(&m);
    if (n) {
      if (n->val != expect) reach_error();
      expect++;
      free(n);
    }
  }
  return 0;
}
int main(void) {
  pthread_t p, c;
  pthread_mutex_init(&m, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
