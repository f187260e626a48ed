// expect: unsafe
// args: --no-races
// continue in a do-while jumps to the condition (here 0), which ends the loop after one pass
extern void reach_error(void);

int main(void) {
  int i = 0;
  do {
    i++;
    if (i < 5) {
      continue;
    }
    break;
  } while (0);
  if (i != 5) {   // i is 1
    reach_error();
  }
  return 0;
}
