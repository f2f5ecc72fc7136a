#include <spmma_plugin/host_epilogue.hpp>
#include <spmma_plugin/refusals.hpp>

#include <limits>

namespace spmma_plugin {

std::string types_label(spmma_dtype a, spmma_dtype b, spmma_dtype acc, bool satfinite) {
    return std::string(spmma_dtype_name(a)) + " x " + spmma_dtype_name(b) + " -> " + spmma_dtype_name(acc) +
           (satfinite ? " satfinite" : "");
}

std::string types_label(const spmma_problem& p) { return types_label(p.a_type, p.b_type, p.acc_type, p.saturate != 0); }

std::string shared_memory_reason(const std::string& kernel, int need_bytes, int allowed_bytes, const std::string& arch) {
    if (need_bytes <= allowed_bytes) return {};
    return "kernel " + kernel + " needs " + std::to_string(need_bytes / 1024) + " KiB of shared memory per block, " + arch +
           " allows " + std::to_string(allowed_bytes / 1024) + " KiB";
}

std::string epilogue_words(const spmma_problem& p) {
    char buf[64];
    return spmma_epilogue_label(&p, buf, sizeof buf);
}

std::string unfused_epilogue_reason(const spmma_problem& p, const std::string& plugin) {
    if (!spmma_problem_has_epilogue(&p)) return {};
    return "unsupported: the " + plugin + " plugin does not apply the epilogue yet (" + epilogue_words(p) +
           "); it computes alpha*A*B + beta*C only";
}

std::string fused_epilogue_reason(const spmma_problem& p) {
    const std::string why = host_epilogue_reason(p);
    return why.empty() ? why : "unsupported: " + why;
}

std::string tile_count_reason(int64_t m, int64_t n, int bm, int bn) {
    const int64_t tiles = ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
    if (tiles > std::numeric_limits<int32_t>::max()) return "too many CTA tiles for one launch";
    return {};
}

}  // namespace spmma_plugin
