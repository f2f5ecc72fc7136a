// The embedded sm100a kernels, disassembled with cuobjdump (PyPI nvidia-cuda-cuobjdump): each
// must issue the sparse 5th-generation MMA of its kind with its tensor-memory operands --
//   UTCHMMA (kind::f16, tf32), UTCQMMA (f8f6f4, mxf8f6f4), UTCIMMA (i8), UTCOMMA (mxf4, mxf4nvf4),
//   .2CTA for cta_group::2, as "gdesc[A], gdesc[B], tmem[D], tmem[metadata], idesc[..]" and, for
//   the block-scaled kinds, a further tmem operand (the scale factors) --
// move metadata (and scales) to tensor memory with UTCCP, and touch no local memory. Runs
// without a GPU.
#include "../common/plugin.hpp"
#include "../common/sass.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace sass = spmma_test::sass;

struct Expect {
    std::string op;  // UTCHMMA, UTCQMMA, UTCIMMA, UTCOMMA
    bool scaled;
};

Expect expected(const std::string& name) {
    auto has = [&](const char* s) { return name.rfind(std::string("sm100a_") + s, 0) == 0; };
    if (has("mxf4")) return {"UTCOMMA", true};  // mxf4_ and mxf4nvf4x*
    if (has("mxf8f6f4")) return {"UTCQMMA", true};
    if (has("f8f6f4")) return {"UTCQMMA", false};
    if (has("i8")) return {"UTCIMMA", false};
    return {"UTCHMMA", false};  // f16bf16, tf32
}

}  // namespace

TEST_CASE("sm100a SASS: every kernel issues UTC*MMA of its kind with the metadata (and scale) tensor-memory operands",
          "[sm100a][sass]") {
    const std::string cuobjdump = sass::cuobjdump();
    const std::string so = std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm100a.so";
    const auto names = spmma_test::plugin_kernel_names(so);
    REQUIRE(names.size() >= 20);
    const auto funcs = sass::function_texts(cuobjdump, so);
    std::map<std::string, int> kinds_seen;
    for (const std::string& name : names) {
        INFO(name);
        const auto it = funcs.find(name);
        REQUIRE(it != funcs.end());
        const std::string& text = it->second;
        const Expect e = expected(name);
        const bool pair = name.find("_cg2_") != std::string::npos;
        // gdesc[A], gdesc[B], tmem[D], tmem[metadata], idesc[..] (, tmem[scales]) -- the sparse form.
        const std::string ops = e.op + (pair ? R"(\.2CTA)" : "") +
                                R"((\.[A-Z0-9]+)*\s+gdesc\[UR\d+\], gdesc\[UR\d+\], tmem\[UR\d+\], tmem\[UR\d+\], idesc\[UR\d+\])" +
                                (e.scaled ? R"(, tmem\[UR\d+\])" : "");
        const std::regex mma(ops);
        std::smatch m;
        INFO("looking for " << ops);
        CHECK(std::regex_search(text, m, mma));
        CHECK(std::regex_search(text, std::regex(std::string(R"(UTCCP\.T\.S)") + (pair ? R"(\.2CTA)" : "") + R"(\.128dp128bit tmem)")));
        if (e.scaled) CHECK(std::regex_search(text, std::regex(R"(UTCCP\.T\.S(\.2CTA)?\.4x32dp128bit tmem)")));
        // The dense form (no metadata operand) must not appear.
        CHECK_FALSE(std::regex_search(text, std::regex(e.op + R"((\.[A-Z0-9]+)*\s+gdesc\[UR\d+\], gdesc\[UR\d+\], tmem\[UR\d+\], idesc)")));
        CHECK_FALSE(sass::touches_local_memory(text));
        ++kinds_seen[e.op + (e.scaled ? " scaled" : "") + (pair ? " 2cta" : "")];
    }
    for (const auto& [k, n] : kinds_seen) UNSCOPED_INFO(k << ": " << n << " kernels");
    CHECK(kinds_seen.size() == 10);  // {H, Q, I} x {1, 2 CTA} + Q scaled x 2 + O scaled x 2
}
