// What the emu tests share: `spmma gemm --emulate FAMILY ...` through the command line, and the
// emu plugin's C API for the questions the command line does not ask.
#pragma once

#include "../app/cli.hpp"
#include "../common/plugin.hpp"

#include <catch2/catch.hpp>

#include <spmma/plugin.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace emu_test {

// spmma gemm --emulate `family` with `args`, full verification, one iteration; with
// SPMMA_EMU_FAULT=`fault` in its environment when `fault` is given.
inline CliResult emulate(const std::string& family, const std::string& args, const char* fault = nullptr) {
    if (fault) ::setenv("SPMMA_EMU_FAULT", fault, 1);
    const CliResult r = spmma_cli("gemm --emulate " + family + " " + args +
                                  " --verify full --warmup 0 --iterations 1 --no-progress --plugin-dir " + SPMMA_PLUGIN_DIR);
    if (fault) ::unsetenv("SPMMA_EMU_FAULT");
    return r;
}

// Every record of the run verified (`n` of them, n > 0) and nothing failed, erred or was skipped.
inline void require_all_verified(const CliResult& r, int n) {
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains(std::to_string(n) + " verified, 0 failed, 0 errors, 0 not verified, 0 skipped"));
}

inline const spmma_plugin_api* emu_api() { return spmma_test::load_plugin(std::string(SPMMA_PLUGIN_DIR) + "/spmma-emu.so"); }

// The emulated kernels whose names start with `prefix`.
inline std::vector<std::string> emu_kernels(const std::string& prefix) {
    std::vector<std::string> v;
    for (const std::string& k : spmma_test::plugin_kernel_names(std::string(SPMMA_PLUGIN_DIR) + "/spmma-emu.so"))
        if (k.rfind(prefix, 0) == 0) v.push_back(k);
    return v;
}

// The emu plugin's answer to "can `kernel` run `p`?": "" when it can, else its reason.
inline std::string emu_reason(const spmma_problem& p, const std::string& kernel) {
    char why[1024] = {};
    const spmma_status s = emu_api()->supports(0, &p, kernel.c_str(), why, sizeof why);
    return s == SPMMA_OK ? std::string() : std::string(why);
}

inline spmma_problem problem(int64_t m, int64_t n, int64_t k, spmma_dtype a, spmma_dtype b, spmma_dtype acc, spmma_pattern pat) {
    spmma_problem p{};
    p.struct_size = sizeof p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.a_type = a;
    p.b_type = b;
    p.acc_type = acc;
    p.c_type = p.d_type = acc;
    p.pattern = pat;
    p.scale_type = SPMMA_DTYPE_NONE;
    p.alpha = 1.0;
    return p;
}

}  // namespace emu_test
