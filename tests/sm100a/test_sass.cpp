// The embedded sm100a kernels, disassembled with cuobjdump (PyPI nvidia-cuda-cuobjdump): each
// must issue the sparse 5th-generation MMA of its kind with its tensor-memory operands --
//   UTCHMMA (kind::f16, tf32), UTCQMMA (f8f6f4, mxf8f6f4), UTCIMMA (i8), UTCOMMA (mxf4, mxf4nvf4),
//   .2CTA for cta_group::2, as "gdesc[A], gdesc[B], tmem[D], tmem[metadata], idesc[..]" and, for
//   the block-scaled kinds, a further tmem operand (the scale factors) --
// move metadata (and scales) to tensor memory with UTCCP, and touch no local memory. Runs
// without a GPU.
#include <catch2/catch.hpp>

#include <spmma/plugin.h>

#include <dlfcn.h>

#include <cstdio>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

std::vector<std::string> plugin_kernel_names(const std::string& so) {
    void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    INFO("dlopen " << so << ": " << (h ? "ok" : dlerror()));
    REQUIRE(h != nullptr);
    auto entry = reinterpret_cast<spmma_plugin_entry_fn>(dlsym(h, SPMMA_ENTRY_SYMBOL));
    REQUIRE(entry != nullptr);
    const spmma_plugin_api* api = entry();
    std::vector<std::string> names;
    for (int32_t i = 0; i < api->kernel_count(); ++i) {
        spmma_kernel_info k{};
        k.struct_size = sizeof k;
        REQUIRE(api->get_kernel(i, &k) == SPMMA_OK);
        names.emplace_back(k.name);
    }
    return names;  // the plugin stays loaded: its strings were copied
}

// Function name -> its SASS text.
std::map<std::string, std::string> disassemble(const std::string& cuobjdump, const std::string& so) {
    const std::string dir = cuobjdump.substr(0, cuobjdump.find_last_of('/'));
    const std::string cmd = "PATH='" + dir + "':\"$PATH\" '" + cuobjdump + "' -sass '" + so + "' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::map<std::string, std::string> funcs;
    std::string current;
    char line[4096];
    const std::string tag = "Function : ";
    while (fgets(line, sizeof line, p)) {
        std::string s(line);
        const auto at = s.find(tag);
        if (at != std::string::npos) {
            current = s.substr(at + tag.size());
            while (!current.empty() && (current.back() == '\n' || current.back() == ' ')) current.pop_back();
            continue;
        }
        if (!current.empty()) funcs[current] += s;
    }
    const int rc = pclose(p);
    INFO(cmd);
    REQUIRE(rc == 0);
    return funcs;
}

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
    const std::string cuobjdump = SPMMA_CUOBJDUMP;
    if (cuobjdump.empty())
        FAIL("cuobjdump was not found when CMake ran. Install it with\n"
             "  pip install --target " SPMMA_SOURCE_DIR "/.tools nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm\n"
             "then re-run cmake (tests/CMakeLists.txt looks in .tools/nvidia/cu13/bin).");
    const std::string so = std::string(SPMMA_PLUGIN_DIR) + "/spmma-sm100a.so";
    const auto names = plugin_kernel_names(so);
    REQUIRE(names.size() >= 20);
    const auto funcs = disassemble(cuobjdump, so);
    const std::regex local(R"(\b(LDL|STL)(\.[A-Z0-9]+)*\s)");
    std::map<std::string, int> kinds_seen;
    for (const std::string& name : names) {
        INFO(name);
        const auto it = funcs.find(name);
        REQUIRE(it != funcs.end());
        const std::string& sass = it->second;
        const Expect e = expected(name);
        const bool pair = name.find("_cg2_") != std::string::npos;
        // gdesc[A], gdesc[B], tmem[D], tmem[metadata], idesc[..] (, tmem[scales]) -- the sparse form.
        const std::string ops = e.op + (pair ? R"(\.2CTA)" : "") +
                                R"((\.[A-Z0-9]+)*\s+gdesc\[UR\d+\], gdesc\[UR\d+\], tmem\[UR\d+\], tmem\[UR\d+\], idesc\[UR\d+\])" +
                                (e.scaled ? R"(, tmem\[UR\d+\])" : "");
        const std::regex mma(ops);
        std::smatch m;
        INFO("looking for " << ops);
        CHECK(std::regex_search(sass, m, mma));
        CHECK(std::regex_search(sass, std::regex(std::string(R"(UTCCP\.T\.S)") + (pair ? R"(\.2CTA)" : "") + R"(\.128dp128bit tmem)")));
        if (e.scaled) CHECK(std::regex_search(sass, std::regex(R"(UTCCP\.T\.S(\.2CTA)?\.4x32dp128bit tmem)")));
        // The dense form (no metadata operand) must not appear.
        CHECK_FALSE(std::regex_search(sass, std::regex(e.op + R"((\.[A-Z0-9]+)*\s+gdesc\[UR\d+\], gdesc\[UR\d+\], tmem\[UR\d+\], idesc)")));
        CHECK_FALSE(std::regex_search(sass, local));
        ++kinds_seen[e.op + (e.scaled ? " scaled" : "") + (pair ? " 2cta" : "")];
    }
    for (const auto& [k, n] : kinds_seen) UNSCOPED_INFO(k << ": " << n << " kernels");
    CHECK(kinds_seen.size() == 10);  // {H, Q, I} x {1, 2 CTA} + Q scaled x 2 + O scaled x 2
}
