# 1 "orig/error.c"
# 1 "<built-in>"
# 1 "orig/error.c"
int ok;
# 40 "orig/error.c"
int broken = ;
