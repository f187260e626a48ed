// expect: safe
// args: --no-races
// heap: a linked list of three malloc'd nodes, traversed to sum its values (1 + 2 + 3)
#include <stdlib.h>
extern void reach_error(void);

struct node {
  int val;
  struct node *next;
};

int main(void) {
  struct node *head = 0;
  for (int i = 1; i <= 3; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (n == 0) {
      abort();
    }
    n->val = i;
    n->next = head;
    head = n;
  }
  int sum = 0;
  for (struct node *p = head; p != 0; p = p->next) {
    sum += p->val;
  }
  if (sum != 6) {
    reach_error();
  }
  while (head != 0) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
