// expect: safe
// args: --property valid-memsafety
// Two workers push nodes on a locked list; main frees the whole list after
// the joins: every node stays reachable from the head until it is freed.
#include <pthread.h>
#include <stdlib.h>

struct node {
  int value;
  struct node *next;
};

struct node *head;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *push(void *arg) {
  struct node *n = malloc(sizeof(struct node));
  n->value = 1;
  pthread_mutex_lock(&m);
  n->next = head;
  head = n;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, push, 0);
  pthread_create(&b, 0, push, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  while (head) {
    struct node *n = head;
    head = head->next;
    free(n);
  }
  return 0;
}
