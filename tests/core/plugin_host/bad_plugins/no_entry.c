/* A shared library without spmma's entry symbol. */
#include <spmma/plugin.h>

SPMMA_EXPORT int not_the_entry_symbol(void) { return 42; }
