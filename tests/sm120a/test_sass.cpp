// The plugin's embedded sm_120a cubin, disassembled with cuobjdump (PyPI nvidia-cuda-cuobjdump):
// every kernel of the lists is there and issues its form's sparse MMA, 2 steps x 16 atoms each
// (QMMA.SP for kind::f8f6f4, QMMA.SF.SP for kind::mxf8f6f4, OMMA.SF.SP for kind::mxf4 /
// mxf4nvf4), and the sm_121a cubin carries the same kernels.
#include <spmma_sm120a/kernel_tiles.hpp>
#include <spmma_sm120a/layout.hpp>

#include "../common/sass.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

namespace {

namespace L = spmma_sm120a;

namespace sass = spmma_test::sass;

std::string upper(const char* s) { return sass::upper(s); }

// The SASS mnemonic prefix of a form's sparse MMA (as cuobjdump 13 prints it).
std::string sass_of(const L::Form& f) {
    const std::string ab = upper(spmma_dtype_name(f.a)) + "." + upper(spmma_dtype_name(f.b));
    switch (f.kind) {
        case L::Kind::F8F6F4: return "QMMA.SP.16864." + upper(spmma_dtype_name(f.acc)) + "." + ab + " ";
        case L::Kind::MXF8F6F4: return "QMMA.SF.SP.16864.F32." + ab + ".E8 ";
        default: return f.scale == SPMMA_UE4M3 ? "OMMA.SF.SP.168128.F32.E2M1.E2M1.UE4M3.4X " : "OMMA.SF.SP.168128.F32.E2M1.E2M1.E8 ";
    }
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

// The same count over every function.
int count(const std::map<std::string, std::string>& fns, const std::string& what) {
    int n = 0;
    for (const auto& [name, text] : fns) n += count(text, what);
    return n;
}

struct Entry {
    std::string name;
    L::Form form;
    L::Tile tile;
};

std::vector<Entry> all_kernels() {
    std::vector<Entry> v;
#define SPMMA_SM120A_KERNEL(name, KIND, A, B, ACC, SV, SCALE, bm, bn, wm, wn, stages) \
    v.push_back(Entry{#name, SPMMA_SM120A_FORM(KIND, A, B, ACC, SV, SCALE), L::Tile{bm, bn, wm, wn, stages}});
#include <spmma_sm120a/kernels/f8f6f4.inc>
#include <spmma_sm120a/kernels/mxf8f6f4.inc>
#include <spmma_sm120a/kernels/mxf4.inc>
#include <spmma_sm120a/kernels/mxf4nvf4.inc>
#undef SPMMA_SM120A_KERNEL
    return v;
}

// Function name -> its SASS text in the plugin's cubin for `arch`.
std::map<std::string, std::string> disassemble(const char* arch) {
    return sass::function_texts(sass::cuobjdump(), SPMMA_SM120A_PLUGIN, std::string("-arch ") + arch);
}

}  // namespace

TEST_CASE("sm120a SASS: the sm_120a cubin holds OMMA.SF.SP, QMMA.SF.SP and QMMA.SP, each kernel its form's, 32 per kernel", "[sm120a]") {
    const auto fns = disassemble("sm_120a");
    INFO(fns.size() << " functions in the sm_120a cubin");
    REQUIRE(count(fns, "OMMA.SF.SP.168128") > 0);
    REQUIRE(count(fns, "QMMA.SF.SP.16864") > 0);
    REQUIRE(count(fns, "QMMA.SP.16864") > 0);
    const auto kernels = all_kernels();
    REQUIRE(fns.size() == kernels.size());
    for (const Entry& k : kernels) {
        INFO(k.name);
        const auto it = fns.find(k.name);
        REQUIRE(it != fns.end());
        const int per_kernel = L::kSteps * (k.tile.wm / L::kAtomRows) * (k.tile.wn / L::kAtomCols);
        CHECK(count(it->second, sass_of(k.form)) == per_kernel);
        CHECK(count(it->second, "MMA") == per_kernel);  // no other MMA (e.g. a dense fallback)
    }
}

TEST_CASE("sm120a SASS: the sm_121a cubin carries the same kernels", "[sm120a]") {
    const auto fns = disassemble("sm_121a");
    const auto kernels = all_kernels();
    REQUIRE(fns.size() == kernels.size());
    for (const Entry& k : kernels) {
        INFO(k.name);
        const auto it = fns.find(k.name);
        REQUIRE(it != fns.end());
        CHECK(count(it->second, sass_of(k.form)) > 0);
    }
}
