/* A plugin that speaks a future ABI major: spmma must refuse it and say which versions. */
#include <spmma/plugin.h>

static const spmma_plugin_api api = {.struct_size = sizeof(spmma_plugin_api), .abi_major = SPMMA_ABI_MAJOR + 1};

SPMMA_EXPORT const spmma_plugin_api* spmma_plugin_entry(void) { return &api; }
