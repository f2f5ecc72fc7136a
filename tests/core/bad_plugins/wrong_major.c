/* A plugin that speaks a future ABI major: spmma must refuse it and say which versions. */
#include <spmma/plugin.h>

static const spmma_plugin_api api = {sizeof(spmma_plugin_api), SPMMA_ABI_MAJOR + 1, 0, 0};

SPMMA_EXPORT const spmma_plugin_api* spmma_plugin_entry(void) { return &api; }
