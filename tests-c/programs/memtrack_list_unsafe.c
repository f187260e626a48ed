// expect: unsafe
// args: --property valid-memsafety
// Two workers push nodes on a list without a lock: both read the same head,
// and one node is overwritten as the head and lost (valid-memtrack).
#include <pthread.h>
#include <stdlib.h>

struct node {
  int value;
  struct node *next;
};

struct node *head;

void *push(void *arg) {
  struct node *n = malloc(sizeof(struct node));
  n->value = 1;
  n->next = head;
  head = n;
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
