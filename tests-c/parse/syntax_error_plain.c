int x;

int main(void)
{
  x = 1
  return x;
}
