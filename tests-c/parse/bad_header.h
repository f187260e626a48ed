/* A local header with an error on line 3. */
int helper(int);
int broken(int x) { return x + ; }
