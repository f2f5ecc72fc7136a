// The real mma.sp against the bit-level model (isa/), bit for bit: one warp runs each
// form the sm80 plugin issues (every type, both metadata variants, every selector) on random
// register contents through the plugin's own PTX wrappers, and every lane's d must equal
// spmma::isa::mma_sp. Small integers keep every float sum exact, so any difference is a layout
// or semantics difference, not rounding. Lanes the selector leaves out hold random garbage
// metadata (the instruction must ignore it). Integer forms also run sums that overflow s32
// (wrap vs .satfinite). Without a GPU of sm_80 or newer the test reports SKIPPED and passes.
#include <catch2/catch.hpp>

#include <spmma/isa/mma_sp.hpp>
#include <spmma/types.hpp>
#include <spmma_plugin/cuda_gemm.hpp>
#include <spmma_sm80/op_tags.hpp>

#include <climits>
#include <random>
#include <string>
#include <vector>

SPMMA_DECLARE_FATBIN(probe_mma)
SPMMA_DECLARE_FATBIN(probe_mma_f8)

namespace {

using namespace spmma_sm80;
using spmma::DType;
namespace cu = spmma_plugin::cuda;

struct Probe {
    std::string kernel;
    const OpInfo* op;
    bool ordered;
    int selector;
};

std::vector<Probe> probes() {
    std::vector<Probe> v;
#define SPMMA_PROBE(tag, ord, sel) v.push_back({"probe_" #tag "_" #ord "_s" #sel, &tags::tag, bool(ord), sel});
#define SPMMA_PROBE_SEL2(tag) SPMMA_PROBE(tag, 1, 0) SPMMA_PROBE(tag, 1, 1) SPMMA_PROBE(tag, 0, 0) SPMMA_PROBE(tag, 0, 1)
#define SPMMA_PROBE_SEL1(tag) SPMMA_PROBE(tag, 1, 0) SPMMA_PROBE(tag, 0, 0)
#define SPMMA_PROBE_WITH_F8 1
#include "probe_mma_list.inc"
#undef SPMMA_PROBE_WITH_F8
#undef SPMMA_PROBE_SEL1
#undef SPMMA_PROBE_SEL2
#undef SPMMA_PROBE
    return v;
}

DType dt(spmma_dtype t) { return static_cast<DType>(t); }

spmma::isa::MmaSp form_of(const Probe& p) {
    spmma::isa::MmaSp f;
    f.k = p.op->family.mma_k();
    f.a = dt(p.op->a);
    f.b = dt(p.op->b);
    f.c = f.d = dt(p.op->acc);
    f.ordered_metadata = p.ordered;
    f.satfinite = p.op->satfinite;
    return f;
}

enum class Data { Small, Overflow };

// A random element code of type t: small integers (exact float sums), or for Overflow the
// largest magnitudes with a sign chosen by `negative` (products then all push one way).
uint32_t element(DType t, Data data, bool negative, std::mt19937& rng) {
    const auto& ti = spmma::info(t);
    if (data == Data::Small || !spmma::is_integer(t)) return spmma::encode(t, std::uniform_int_distribution<int>(-3, 3)(rng));
    const int max = ti.is_signed ? (1 << (ti.bits - 1)) - 1 : (1 << ti.bits) - 1;
    const int lo = max - max / 4;
    const int v = std::uniform_int_distribution<int>(lo, max)(rng);
    return spmma::encode(t, negative && ti.is_signed ? -v : v);
}

uint32_t random_register(DType t, Data data, bool negative, std::mt19937& rng) {
    const int bits = spmma::info(t).storage_bits;
    uint32_t r = 0;
    for (int e = 0; e < 32 / bits; ++e) r |= (element(t, data, negative, rng) & ((bits == 32) ? 0xFFFFFFFFu : ((1u << bits) - 1))) << (e * bits);
    return r;
}

// A valid metadata nibble: tf32 0b0100 / 0b1110; else two different 2-bit indices, increasing
// unless `unordered` allows either order (mma.sp only).
uint32_t nibble(const spmma::isa::MmaSp& f, bool unordered, std::mt19937& rng) {
    if (spmma::isa::chunk_width(f) == 2) return (rng() & 1) ? 0xEu : 0x4u;
    uint32_t a = rng() % 4, b = rng() % 4;
    while (b == a) b = rng() % 4;
    if (!unordered && a > b) std::swap(a, b);
    return a | (b << 2);
}

spmma::isa::MmaSpWarp random_warp(const spmma::isa::MmaSp& f, int selector, Data data, bool unordered, std::mt19937& rng) {
    spmma::isa::MmaSpWarp w{};
    const bool a_signed = spmma::info(f.a).is_signed, b_signed = spmma::info(f.b).is_signed;
    // Overflow data: positive products (both operands positive) or, where a sign is available,
    // negative ones; C starts near the limit the products push towards.
    const bool negative = data == Data::Overflow && (a_signed || b_signed) && (rng() & 1);
    for (int lane = 0; lane < 32; ++lane) {
        for (int r = 0; r < spmma::isa::a_registers(f); ++r) w.a[lane][r] = random_register(f.a, data, negative && a_signed, rng);
        for (int r = 0; r < spmma::isa::b_registers(f); ++r)
            w.b[lane][r] = random_register(f.b, data, negative && !a_signed && b_signed, rng);
        for (int r = 0; r < spmma::isa::c_registers(f); ++r) {
            if (f.c == DType::S32) {
                const int64_t c = data == Data::Overflow ? (negative ? INT32_MIN + int64_t(rng() % 1000) : INT32_MAX - int64_t(rng() % 1000))
                                                         : std::uniform_int_distribution<int>(-100000, 100000)(rng);
                w.c[lane][r] = static_cast<uint32_t>(c);
            } else if (f.c == DType::F16) {
                w.c[lane][r] = spmma::encode(DType::F16, int(rng() % 7) - 3) | (spmma::encode(DType::F16, int(rng() % 7) - 3) << 16);
            } else {
                w.c[lane][r] = spmma::encode(DType::F32, int(rng() % 7) - 3);
            }
        }
        w.e[lane] = static_cast<uint32_t>(rng());  // garbage where the selector does not look
    }
    const int chunks = f.k / spmma::isa::chunk_width(f);
    for (int row = 0; row < 16; ++row)
        for (int c = 0; c < chunks; ++c) {
            const auto pos = spmma::isa::metadata_position(f, selector, row, c);
            uint32_t& e = w.e[pos.lane];
            e = (e & ~(0xFu << (4 * pos.nibble))) | (nibble(f, unordered, rng) << (4 * pos.nibble));
        }
    w.selector = selector;
    return w;
}

// Runs one probe kernel on the device with the warp's registers; returns d per lane.
std::array<std::array<uint32_t, 4>, 32> run_on_device(const cu::Module& mod, const std::string& kernel,
                                                      const spmma::isa::MmaSpWarp& w) {
    std::vector<uint32_t> a(128), b(128), c(128), e(32), d(128, 0xFFFFFFFFu);
    for (int lane = 0; lane < 32; ++lane) {
        for (int r = 0; r < 4; ++r) {
            a[lane * 4 + r] = w.a[lane][r];
            b[lane * 4 + r] = w.b[lane][r];
            c[lane * 4 + r] = w.c[lane][r];
        }
        e[lane] = w.e[lane];
    }
    cu::DeviceBuffer da(512), db(512), dc(512), de(128), dd(512);
    da.upload(a.data(), 512);
    db.upload(b.data(), 512);
    dc.upload(c.data(), 512);
    de.upload(e.data(), 128);
    dd.upload(d.data(), 512);
    CUdeviceptr pa = da.get(), pb = db.get(), pc = dc.get(), pe = de.get(), pd = dd.get();
    void* args[] = {&pa, &pb, &pc, &pe, &pd};
    cu::LaunchShape s;
    s.block[0] = 32;
    const CUfunction fn = mod.function(kernel.c_str());
    cu::launch(fn, s, nullptr, args);
    CU_CHECK(cu::require_driver().cuCtxSynchronize());
    dd.download(d.data(), 512);
    std::array<std::array<uint32_t, 4>, 32> out{};
    for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < 4; ++r) out[lane][r] = d[lane * 4 + r];
    return out;
}

}  // namespace

TEST_CASE("sm80 device: mma.sp on the GPU equals the bit-level model, every form the plugin issues",
          "[sm80][device]") {
    std::string why;
    if (!cu::driver(&why)) {
        WARN("SKIPPED: no CUDA driver here (" << why << ")");
        return;
    }
    if (cu::device_count() == 0) {
        WARN("SKIPPED: no CUDA device here");
        return;
    }
    const cu::DeviceProperties dev = cu::device_properties(0);
    const int cc = dev.major * 10 + dev.minor;
    if (cc < 80) {
        WARN("SKIPPED: " << dev.name << " is " << dev.arch() << "; mma.sp needs sm_80 or newer");
        return;
    }
    cu::Context ctx(0);
    const cu::Module mod(SPMMA_FATBIN(probe_mma));
    std::unique_ptr<cu::Module> mod_f8;
    if (cc >= 89) mod_f8 = std::make_unique<cu::Module>(SPMMA_FATBIN(probe_mma_f8));
    else WARN("e4m3/e5m2 probes skipped: " << dev.arch() << " has no fp8 mma.sp (sm_89+)");

    std::mt19937 rng(0x5eed80);
    int forms = 0;
    for (const Probe& p : probes()) {
        if (p.op->min_sm > cc) continue;
        const cu::Module& m = p.op->min_sm >= 89 ? *mod_f8 : mod;
        const auto f = form_of(p);
        const bool is_int = f.c == DType::S32;
        // (data, unordered metadata): small data always; mma.sp also with indices in either order;
        // integers also with sums that overflow s32.
        std::vector<std::pair<Data, bool>> cases = {{Data::Small, false}, {Data::Small, false}};
        if (!p.ordered) cases.push_back({Data::Small, true});
        if (is_int) cases.push_back({Data::Overflow, false}), cases.push_back({Data::Overflow, false});
        for (const auto& [data, unordered] : cases) {
            const auto w = random_warp(f, p.selector, data, unordered, rng);
            const auto want = spmma::isa::mma_sp(f, w);
            INFO(p.kernel << " (" << spmma::isa::ptx_name(f) << ", selector " << p.selector
                          << (data == Data::Overflow ? ", overflowing s32" : "") << (unordered ? ", unordered indices" : "") << ")");
            REQUIRE(want.undefined.empty());
            const auto got = run_on_device(m, p.kernel, w);
            int bad = 0;
            for (int lane = 0; lane < 32; ++lane)
                for (int r = 0; r < spmma::isa::c_registers(f); ++r)
                    if (got[lane][r] != want.d[lane][r] && ++bad <= 4)
                        UNSCOPED_INFO("lane " << lane << " d" << r << ": device 0x" << std::hex << got[lane][r]
                                              << ", model 0x" << want.d[lane][r] << std::dec);
            CHECK(bad == 0);
        }
        ++forms;
    }
    CHECK(forms >= (cc >= 89 ? 56 : 48));
}
