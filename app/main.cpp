// spmma: the command line. Work in progress: the command tree lands with the foundation issue.
#include <cstdio>
int main() { std::puts("spmma " SPMMA_VERSION); return 0; }
