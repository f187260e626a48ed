#include <stdlib.h>
#include "bad_header.h"

int main(void) { return helper(0); }
